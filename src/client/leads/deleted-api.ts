import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DeletedLead, RestoreResult } from "../../shared/schemas/deleted-leads";
import { api } from "../lib/api";
import { deletedLeadsKey, invalidateLeads } from "./api";

// Recently deleted leads and their restore (issue 30, decision 214): management's list and the Restore button.

export function useDeletedLeads(dealershipId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: deletedLeadsKey(dealershipId ?? ""),
    queryFn: () => api.get<DeletedLead[]>(`/api/dealerships/${dealershipId}/deleted-leads`),
    enabled: Boolean(dealershipId) && enabled,
    staleTime: 0,
  });
}

export function useRestoreLead(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<RestoreResult, Error, string>({
    mutationFn: (leadId) => api.post<RestoreResult>(`/api/leads/${leadId}/restore`),
    onSuccess: (result) => {
      queryClient.setQueryData<DeletedLead[]>(deletedLeadsKey(dealershipId), (list) => list?.filter((l) => l.id !== result.lead.id));
      invalidateLeads(queryClient, dealershipId, result.lead.id);
    },
  });
}
