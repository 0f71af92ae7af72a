import { useState } from "react";
import { ApiError } from "../lib/api";
import { toast } from "../lib/toast";
import { useClaimLead, useDeleteLead } from "./api";

// Claim and delete with the toasts of part 1 §8, shared by New Leads, My Clients and the dashboard.

export function isAlreadyClaimed(error: unknown): boolean {
  return error instanceof Error && error.message.includes("already claimed");
}

/** Claim: true when it succeeded. `successToast` picks which of the spec's two success texts this screen shows. */
export function useClaimAction(dealershipId: string, successToast: "detailed" | "short") {
  const claim = useClaimLead(dealershipId);
  return async (leadId: string): Promise<boolean> => {
    try {
      await claim.mutateAsync(leadId);
      if (successToast === "detailed") {
        toast({ title: "✓ Lead Claimed Successfully", description: "The lead has been added to your clients.", variant: "success" });
      } else {
        toast({ title: "Lead claimed and assigned to you", variant: "success" });
      }
      return true;
    } catch (error) {
      if (isAlreadyClaimed(error)) {
        toast({ title: "Lead Already Claimed", description: "This lead has already been claimed by another user.", variant: "destructive" });
      } else if (!(error instanceof ApiError && error.status === 401)) {
        toast({ title: "Error", description: "Failed to claim the lead. Please try again.", variant: "destructive" });
      }
      return false;
    }
  };
}

/**
 * Delete with the row faded meanwhile (part 1 §2.4). On My Clients a failure is only logged (part 1 §8); elsewhere it
 * shows the error toast.
 */
export function useDeleteAction(dealershipId: string, screen: "newLeads" | "myClients") {
  const remove = useDeleteLead(dealershipId);
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(new Set());
  const mark = (leadId: string, on: boolean) =>
    setDeleting((prev) => {
      const next = new Set(prev);
      if (on) next.add(leadId);
      else next.delete(leadId);
      return next;
    });
  const run = async (leadId: string) => {
    mark(leadId, true);
    try {
      await remove.mutateAsync(leadId);
      if (screen === "myClients") toast({ title: "Lead deleted successfully", variant: "success" });
      else toast({ title: "✓ Lead Deleted", description: "The lead has been successfully removed.", variant: "success" });
    } catch (error) {
      if (screen === "myClients") console.error("Failed to delete lead", error);
      else toast({ title: "Error", description: "Failed to delete the lead. Please try again.", variant: "destructive" });
    } finally {
      mark(leadId, false);
    }
  };
  return { deleting, remove: (leadId: string) => void run(leadId) };
}
