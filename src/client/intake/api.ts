import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateIntakeCredentialInput } from "../../shared/schemas/intake";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type { ImportLeadField, ImportPreview, ImportResult, IntakeCredential, IntakeCredentialWithSecret, IntakeDocument } from "../../shared/schemas/responses/intake";
import { api, apiRequest } from "../lib/api";

// Data of the lead intake card and the CSV import/export (issue 14). Keys are the paths they read.

export const credentialsKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "intake", "credentials"] as const;
export const documentsKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "intake", "documents"] as const;

export function useIntakeCredentials(dealershipId: string) {
  return useQuery<IntakeCredential[]>({ queryKey: credentialsKey(dealershipId) });
}

export function useIntakeDocuments(dealershipId: string) {
  return useQuery<IntakeDocument[]>({ queryKey: documentsKey(dealershipId), refetchInterval: 30_000 });
}

function useCredentialMutation<V>(dealershipId: string, call: (v: V) => Promise<IntakeCredentialWithSecret | MessageResponse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: credentialsKey(dealershipId) }),
  });
}

export function useCreateCredential(dealershipId: string) {
  return useCredentialMutation(dealershipId, (input: CreateIntakeCredentialInput) =>
    api.post<IntakeCredentialWithSecret>(`/api/dealerships/${dealershipId}/intake/credentials`, input),
  );
}

export function useRotateCredential(dealershipId: string) {
  return useCredentialMutation(dealershipId, (id: string) =>
    api.post<IntakeCredentialWithSecret>(`/api/dealerships/${dealershipId}/intake/credentials/${id}/rotate`),
  );
}

export function useRevokeCredential(dealershipId: string) {
  return useCredentialMutation(dealershipId, (id: string) => api.delete<MessageResponse>(`/api/dealerships/${dealershipId}/intake/credentials/${id}`));
}

async function sendCsv<T>(url: string, file: Blob, mapping?: Record<string, ImportLeadField | null>): Promise<T> {
  const query = mapping ? `?mapping=${encodeURIComponent(JSON.stringify(mapping))}` : "";
  const response = await apiRequest("POST", `${url}${query}`, new Blob([file], { type: "text/csv" }), { "Content-Type": "text/csv" });
  return (await response.json()) as T;
}

export function previewImport(dealershipId: string, file: Blob, mapping?: Record<string, ImportLeadField | null>) {
  return sendCsv<ImportPreview>(`/api/dealerships/${dealershipId}/leads/import/preview`, file, mapping);
}

export function commitImport(dealershipId: string, file: Blob, mapping: Record<string, ImportLeadField | null>) {
  return sendCsv<ImportResult>(`/api/dealerships/${dealershipId}/leads/import`, file, mapping);
}

/** The export of the list as it is filtered on screen: a download link, streamed by the server. */
export function exportUrl(dealershipId: string, filters: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const query = params.toString();
  return `/api/dealerships/${dealershipId}/leads/export${query ? `?${query}` : ""}`;
}
