import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DealershipSettingsInput } from "../../shared/schemas/dealership-settings";
import type { DealershipSettingsAnswer, FirstRun } from "../../shared/schemas/responses/dealership-settings";
import { DEALERSHIPS_KEY } from "../auth/keys";
import { api } from "../lib/api";

// The dealership's Settings tab and first-run checklist (issue 30, decisions 191, 192). Keys are the paths they read.

export const settingsKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "settings"] as const;
export const firstRunKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "first-run"] as const;

export function useDealershipSettings(dealershipId: string) {
  return useQuery<DealershipSettingsAnswer>({ queryKey: settingsKey(dealershipId) });
}

export function useSaveDealershipSettings(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<DealershipSettingsAnswer, Error, DealershipSettingsInput>({
    mutationFn: (settings) => api.put<DealershipSettingsAnswer>(`/api/dealerships/${dealershipId}/settings`, settings),
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKey(dealershipId), settings);
      // The name, the clock and the hours the other screens read come with the dealership list.
      void queryClient.invalidateQueries({ queryKey: DEALERSHIPS_KEY, exact: true });
      void queryClient.invalidateQueries({ queryKey: firstRunKey(dealershipId) });
    },
  });
}

export function useFirstRun(dealershipId: string | undefined, enabled: boolean) {
  return useQuery<FirstRun>({ queryKey: firstRunKey(dealershipId ?? ""), enabled: Boolean(dealershipId) && enabled });
}

export function useDismissFirstRun(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<FirstRun, Error, void>({
    mutationFn: () => api.post<FirstRun>(`/api/dealerships/${dealershipId}/first-run/dismiss`),
    onSuccess: (firstRun) => queryClient.setQueryData(firstRunKey(dealershipId), firstRun),
  });
}
