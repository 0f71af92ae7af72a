import { Eye, MoreHorizontal, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { fullName } from "../../shared/format";
import type { Lead } from "../../shared/schemas/lead";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../components/ui/alert-dialog";
import { Button } from "../components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "../components/ui/dropdown-menu";

// Apart from ./components.tsx so that the dashboard's recent leads (no row menu) do not download the menu and the
// dialog (issue 12).

/** The row menu with "Delete Lead", confirmed in a dialog. */
export function LeadRowMenu({ lead, onDelete, disabled }: { lead: Lead; onDelete: () => void; disabled?: boolean }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon-sm" aria-label={`More actions for ${fullName(lead)}`} disabled={disabled}>
            <MoreHorizontal />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem asChild>
            <Link to={`/leads/detail/${lead.id}`}>
              <Eye />
              View Details
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem variant="destructive" onSelect={() => setConfirming(true)}>
            <Trash2 />
            Delete Lead
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <DeleteLeadDialog lead={lead} open={confirming} onOpenChange={setConfirming} onConfirm={onDelete} />
    </>
  );
}

export function DeleteLeadDialog({ lead, open, onOpenChange, onConfirm }: { lead: Pick<Lead, "firstName" | "lastName">; open: boolean; onOpenChange: (open: boolean) => void; onConfirm: () => void }) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {fullName(lead)}?</AlertDialogTitle>
          <AlertDialogDescription>
            The lead, its notes, tasks and history are removed for everyone at the dealership. Management can restore it
            from Recently Deleted for 30 days.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className="bg-destructive text-destructive-foreground hover:bg-destructive/90" onClick={onConfirm}>
            Delete Lead
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
