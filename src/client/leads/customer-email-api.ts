import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { EmailTemplateInput, SendEmailInput } from "../../shared/schemas/customer-email";
import type { EmailTemplate, LeadEmail } from "../../shared/schemas/responses/customer-email";
import { api } from "../lib/api";

// E-mail with the customer (issue 26, decision 228): the composer's send and templates, and management's template
// list in the admin panel. A sent mail refreshes the lead's queries (its timeline shows it queued, then sent).

export const templatesKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "email-templates"] as const;

export function useEmailTemplates(dealershipId: string | undefined) {
  return useQuery<EmailTemplate[]>({ queryKey: templatesKey(dealershipId ?? ""), enabled: Boolean(dealershipId) });
}

export function useSendEmail(leadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendEmailInput) => api.post<LeadEmail>(`/api/leads/${encodeURIComponent(leadId)}/emails`, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["/api/leads", leadId] }),
  });
}

/** A template filled in for the lead (the customer's first name, the rep, the dealership, the vehicle). */
export const fetchDraft = (leadId: string, templateId: string) =>
  api.get<{ subject: string; body: string }>(`/api/leads/${encodeURIComponent(leadId)}/email-draft?templateId=${encodeURIComponent(templateId)}`);

function useTemplateWrite<V, R>(dealershipId: string, write: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => queryClient.invalidateQueries({ queryKey: templatesKey(dealershipId) }) });
}

const templatesUrl = (dealershipId: string) => `/api/dealerships/${encodeURIComponent(dealershipId)}/email-templates`;

export const useCreateTemplate = (dealershipId: string) => useTemplateWrite(dealershipId, (input: EmailTemplateInput) => api.post<EmailTemplate>(templatesUrl(dealershipId), input));
export const useUpdateTemplate = (dealershipId: string) =>
  useTemplateWrite(dealershipId, ({ id, ...input }: EmailTemplateInput & { id: string }) => api.put<EmailTemplate>(`${templatesUrl(dealershipId)}/${encodeURIComponent(id)}`, input));
export const useDeleteTemplate = (dealershipId: string) => useTemplateWrite(dealershipId, (id: string) => api.delete<{ id: string }>(`${templatesUrl(dealershipId)}/${encodeURIComponent(id)}`));
