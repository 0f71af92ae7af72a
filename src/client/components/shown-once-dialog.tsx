import { Copy } from "lucide-react";
import type { ReactNode } from "react";
import { toast } from "../lib/toast";
import { Button } from "./ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./ui/dialog";

/**
 * A secret shown this once, with Copy and Done: the server keeps only its hash (API tokens, intake credentials) or an
 * encrypted copy (webhook secrets), so closing the dialog is the last chance to read it. `hint` says where it goes;
 * `children` add a line under the secret.
 */
export function ShownOnceDialog({ title, value, hint, children, onClose }: { title: string; value: string; hint: string; children?: ReactNode; onClose: () => void }) {
  function copy() {
    void navigator.clipboard?.writeText(value).then(() => toast({ title: "Copied", variant: "success" }));
  }
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="break-all">{title}</DialogTitle>
          <DialogDescription>Copy it now: it is shown this once. {hint}</DialogDescription>
        </DialogHeader>
        <code className="block break-all rounded-md border bg-muted/50 p-3 text-sm" data-testid="shown-once">
          {value}
        </code>
        {children}
        <DialogFooter>
          <Button variant="outline" onClick={copy}>
            <Copy />
            Copy
          </Button>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
