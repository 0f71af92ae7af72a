import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiTokenInput, WebhookInput, WebhookUpdate } from "../../shared/schemas/integrations";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type { ApiToken, CreatedApiToken, CreatedWebhook, Webhook, WebhookDelivery } from "../../shared/schemas/responses/integrations";
import { api } from "../lib/api";

// Data of the admin panel's API & Webhooks tab (issue 28). Keys are the paths they read.

export const tokensKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "api-tokens"] as const;
export const webhooksKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "webhooks"] as const;
export const deliveriesKey = (dealershipId: string, webhookId: string) => ["/api/dealerships", dealershipId, "webhooks", webhookId, "deliveries"] as const;

export function useApiTokens(dealershipId: string) {
  return useQuery<ApiToken[]>({ queryKey: tokensKey(dealershipId) });
}

export function useWebhooks(dealershipId: string) {
  return useQuery<Webhook[]>({ queryKey: webhooksKey(dealershipId), refetchInterval: 30_000 });
}

export function useDeliveries(dealershipId: string, webhookId: string) {
  return useQuery<WebhookDelivery[]>({ queryKey: deliveriesKey(dealershipId, webhookId), refetchInterval: 15_000 });
}

function useChange<V, R>(key: readonly unknown[], call: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: key }) });
}

export const useCreateToken = (dealershipId: string) =>
  useChange(tokensKey(dealershipId), (input: ApiTokenInput) => api.post<CreatedApiToken>(`/api/dealerships/${dealershipId}/api-tokens`, input));

export const useRevokeToken = (dealershipId: string) =>
  useChange(tokensKey(dealershipId), (id: string) => api.delete<MessageResponse>(`/api/dealerships/${dealershipId}/api-tokens/${id}`));

export const useCreateWebhook = (dealershipId: string) =>
  useChange(webhooksKey(dealershipId), (input: WebhookInput) => api.post<CreatedWebhook>(`/api/dealerships/${dealershipId}/webhooks`, input));

export const useUpdateWebhook = (dealershipId: string) =>
  useChange(webhooksKey(dealershipId), ({ id, change }: { id: string; change: WebhookUpdate }) => api.patch<Webhook>(`/api/dealerships/${dealershipId}/webhooks/${id}`, change));

export const useDeleteWebhook = (dealershipId: string) =>
  useChange(webhooksKey(dealershipId), (id: string) => api.delete<MessageResponse>(`/api/dealerships/${dealershipId}/webhooks/${id}`));

export const useRedeliver = (dealershipId: string, webhookId: string) =>
  useChange(deliveriesKey(dealershipId, webhookId), (deliveryId: string) =>
    api.post<MessageResponse>(`/api/dealerships/${dealershipId}/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`),
  );
