import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MergeLeadsInput, MergeResult, PossibleDuplicate } from "../../shared/schemas/lead-duplicates";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type { FirstResponse, SpeedToLead } from "../../shared/schemas/speed-to-lead";
import { api } from "../lib/api";
import { invalidateLeads, leadKey } from "./api";

// Data of possible duplicates, merging and speed-to-lead (issue 14; decisions 137-142). Keys are the paths they read.

export const duplicatesKey = (leadId: string) => [...leadKey(leadId), "duplicates"] as const;
export const speedToLeadKey = (dealershipId: string, days: number) => ["/api/dealerships", dealershipId, "speed-to-lead", `days=${days}`] as const;

export function useDuplicates(leadId: string) {
  return useQuery<PossibleDuplicate[]>({ queryKey: duplicatesKey(leadId), enabled: Boolean(leadId) });
}

export function useMergeLeads(dealershipId: string, keptLeadId: string) {
  const queryClient = useQueryClient();
  return useMutation<MergeResult, Error, MergeLeadsInput>({
    mutationFn: (input) => api.post<MergeResult>(`/api/leads/${keptLeadId}/merge`, input),
    onSuccess: (result) => {
      queryClient.setQueryData(leadKey(keptLeadId), result.lead);
      queryClient.removeQueries({ queryKey: leadKey(result.mergedLeadId) });
      invalidateLeads(queryClient, dealershipId, keptLeadId);
      // The lead's appointments and test drives lists now hold the moved ones.
      void queryClient.invalidateQueries({ queryKey: ["/api/appointments"] });
      void queryClient.invalidateQueries({ queryKey: ["/api/test-drives"] });
    },
  });
}

export function useDismissDuplicate(leadId: string) {
  const queryClient = useQueryClient();
  return useMutation<MessageResponse, Error, string>({
    mutationFn: (otherId) => api.delete<MessageResponse>(`/api/leads/${leadId}/duplicates/${otherId}`),
    onSuccess: (_result, otherId) => {
      void queryClient.invalidateQueries({ queryKey: duplicatesKey(leadId) });
      void queryClient.invalidateQueries({ queryKey: duplicatesKey(otherId) });
    },
  });
}

/** A call from the lead's page counts as an answer (speed-to-lead); it never stands in the way of the call itself. */
export function recordCall(leadId: string): void {
  void api.post<FirstResponse>(`/api/leads/${leadId}/call`).catch(() => undefined);
}

export function useSpeedToLead(dealershipId: string | undefined, days: number) {
  return useQuery<SpeedToLead>({ queryKey: speedToLeadKey(dealershipId ?? "", days), enabled: Boolean(dealershipId), staleTime: 60_000 });
}

export function useSetUnattendedMinutes(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<{ unattendedLeadMinutes: number }, Error, number>({
    mutationFn: (minutes) => api.put(`/api/dealerships/${dealershipId}/speed-to-lead/settings`, { unattendedLeadMinutes: minutes }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "speed-to-lead"] }),
  });
}
