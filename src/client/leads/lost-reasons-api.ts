import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../lib/api";

// The dealership's lost reasons (decision 202): read where a lead is moved to Lost, edited in the admin panel.

export const lostReasonsKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "lost-reasons"] as const;

export function useLostReasons(dealershipId: string | undefined, enabled = true) {
  return useQuery<string[]>({ queryKey: lostReasonsKey(dealershipId ?? ""), enabled: Boolean(dealershipId) && enabled, staleTime: 5 * 60_000 });
}

export function useSaveLostReasons(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<string[], Error, string[]>({
    mutationFn: (reasons) => api.put<string[]>(`/api/dealerships/${dealershipId}/lost-reasons`, reasons),
    onSuccess: (reasons) => queryClient.setQueryData(lostReasonsKey(dealershipId), reasons),
  });
}
