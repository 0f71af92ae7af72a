import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DistributionSettings, DistributionUpdate, RepAvailability } from "../../shared/schemas/distribution";
import { api } from "../lib/api";

// Lead distribution and the reps on the floor (issue 27, decision 201). Keys are the paths they read.

export const availabilityKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "availability"] as const;
export const distributionKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "distribution"] as const;

export function useAvailability(dealershipId: string | undefined) {
  return useQuery<RepAvailability[]>({ queryKey: availabilityKey(dealershipId ?? ""), enabled: Boolean(dealershipId), staleTime: 30_000 });
}

export function useSetOnFloor(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<RepAvailability, Error, boolean>({
    mutationFn: (onFloor) => api.put<RepAvailability>(`/api/dealerships/${dealershipId}/availability`, { onFloor }),
    onSuccess: (me) => {
      queryClient.setQueryData<RepAvailability[]>(availabilityKey(dealershipId), (list) => list?.map((rep) => (rep.userId === me.userId ? me : rep)));
      void queryClient.invalidateQueries({ queryKey: availabilityKey(dealershipId) });
    },
  });
}

export function useDistribution(dealershipId: string) {
  return useQuery<DistributionSettings>({ queryKey: distributionKey(dealershipId) });
}

export function useSaveDistribution(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<DistributionSettings, Error, DistributionUpdate>({
    mutationFn: (change) => api.put<DistributionSettings>(`/api/dealerships/${dealershipId}/distribution`, change),
    onSuccess: (settings) => queryClient.setQueryData(distributionKey(dealershipId), settings),
  });
}
