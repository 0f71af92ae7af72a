import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DealershipRole } from "../../shared/constants";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type { EmailSubscription, EmailTrigger } from "../../shared/schemas/responses/email-notifications";
import type { DealershipMember, Invitation, MemberRemoved, MemberRoleChanged } from "../../shared/schemas/responses/team";
import type { InviteInput } from "../../shared/schemas/team";
import { api, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";

// Data of the admin panel (part 2 §2 Admin Panel, §7, §8). Keys are the paths they read (part 1 §7); the answers'
// types come from the response schemas (decision 053).

export const membersKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "users"] as const;
export const invitesKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "invites"] as const;
export const triggersKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "email-notifications", "triggers"] as const;
export const subscriptionsKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "email-notifications", "subscriptions"] as const;

export const useMembers = (dealershipId: string) => useQuery<DealershipMember[]>({ queryKey: membersKey(dealershipId) });
export const useInvitations = (dealershipId: string) => useQuery<Invitation[]>({ queryKey: invitesKey(dealershipId) });
export const useTriggers = (dealershipId: string) => useQuery<EmailTrigger[]>({ queryKey: triggersKey(dealershipId) });
export const useSubscriptions = (dealershipId: string) => useQuery<EmailSubscription[]>({ queryKey: subscriptionsKey(dealershipId) });

function failure(title: string, fallback: string) {
  return (error: Error) => toast({ title, description: serverMessage(error, fallback), variant: "destructive" });
}

export function useInviteUser(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Invitation, Error, InviteInput>({
    mutationFn: (input) => api.post<Invitation>(`/api/dealerships/${dealershipId}/invites`, input),
    onSuccess: (invite) => {
      void queryClient.invalidateQueries({ queryKey: invitesKey(dealershipId) });
      toast({ title: "Invitation Sent", description: `An invitation was e-mailed to ${invite.email}.`, variant: "success" });
    },
    onError: failure("Invitation Failed", "Failed to send invitation"),
  });
}

export function useResendInvitation(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Invitation, Error, Invitation>({
    mutationFn: (invite) => api.post<Invitation>(`/api/dealerships/${dealershipId}/invites/${invite.id}/resend`),
    onSuccess: (invite) => {
      void queryClient.invalidateQueries({ queryKey: invitesKey(dealershipId) });
      toast({ title: "Invitation Resent", description: `A new invitation was e-mailed to ${invite.email}.`, variant: "success" });
    },
    onError: failure("Resend Failed", "Failed to resend invitation"),
  });
}

export function useDeleteInvitation(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<MessageResponse, Error, Invitation>({
    mutationFn: (invite) => api.delete<MessageResponse>(`/api/dealerships/${dealershipId}/invites/${invite.id}`),
    onSuccess: (_r, invite) => {
      void queryClient.invalidateQueries({ queryKey: invitesKey(dealershipId) });
      toast({ title: "Invitation Deleted", description: `The invitation for ${invite.email} was withdrawn.`, variant: "success" });
    },
    onError: failure("Delete Failed", "Failed to delete invitation"),
  });
}

export function useChangeRole(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<MemberRoleChanged, Error, { userId: string; role: DealershipRole; name: string }>({
    mutationFn: ({ userId, role }) => api.patch<MemberRoleChanged>(`/api/dealerships/${dealershipId}/users/${userId}/role`, { role }),
    onSuccess: (_r, { name }) => {
      // Everything role-dependent (including the signed-in user's own role) is read again.
      void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId] });
      void queryClient.invalidateQueries({ queryKey: ["/api/dealerships"], exact: true });
      toast({ title: "Role Updated", description: `${name}'s role was changed.`, variant: "success" });
    },
    onError: failure("Update Failed", "Failed to update user role"),
  });
}

export function useRemoveUser(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<MemberRemoved, Error, { userId: string; name: string }>({
    mutationFn: ({ userId }) => api.delete<MemberRemoved>(`/api/dealerships/${dealershipId}/users/${userId}`),
    onSuccess: (result, { name }) => {
      // Their leads went back to New Leads: leads, metrics and members are all stale.
      void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId] });
      const leads = result.returnedLeads;
      toast({
        title: "User Removed",
        description: `${name} was removed.${leads ? ` ${leads} claimed lead${leads === 1 ? "" : "s"} returned to New Leads.` : ""}`,
        variant: "success",
      });
    },
    onError: failure("Remove Failed", "Failed to remove user"),
  });
}

export function useToggleTrigger(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<EmailTrigger, Error, { trigger: EmailTrigger; isActive: boolean }, { previous?: EmailTrigger[] }>({
    mutationFn: ({ trigger, isActive }) => api.patch<EmailTrigger>(`/api/dealerships/${dealershipId}/email-notifications/triggers/${trigger.id}`, { isActive }),
    // The switch moves at once; it moves back if the server refuses.
    onMutate: async ({ trigger, isActive }) => {
      await queryClient.cancelQueries({ queryKey: triggersKey(dealershipId) });
      const previous = queryClient.getQueryData<EmailTrigger[]>(triggersKey(dealershipId));
      queryClient.setQueryData<EmailTrigger[]>(triggersKey(dealershipId), (list) => list?.map((t) => (t.id === trigger.id ? { ...t, isActive } : t)));
      return { previous };
    },
    onSuccess: (trigger) =>
      toast({ title: "Notification Updated", description: `${trigger.displayName} e-mails are now ${trigger.isActive ? "on" : "off"}.`, variant: "success" }),
    onError: (error, _v, context) => {
      if (context?.previous) queryClient.setQueryData(triggersKey(dealershipId), context.previous);
      failure("Update Failed", "Failed to update notification")(error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: triggersKey(dealershipId) }),
  });
}

export function useSetSubscription(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<
    EmailSubscription,
    Error,
    { userId: string; triggerId: string; isSubscribed: boolean; name: string; triggerName: string },
    { previous?: EmailSubscription[] }
  >({
    mutationFn: ({ userId, triggerId, isSubscribed }) =>
      api.post<EmailSubscription>(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, { userId, triggerId, isSubscribed }),
    onMutate: async ({ userId, triggerId, isSubscribed }) => {
      await queryClient.cancelQueries({ queryKey: subscriptionsKey(dealershipId) });
      const previous = queryClient.getQueryData<EmailSubscription[]>(subscriptionsKey(dealershipId));
      queryClient.setQueryData<EmailSubscription[]>(subscriptionsKey(dealershipId), (list = []) => {
        const exists = list.some((s) => s.userId === userId && s.triggerId === triggerId);
        return exists
          ? list.map((s) => (s.userId === userId && s.triggerId === triggerId ? { ...s, isSubscribed } : s))
          : [...list, { id: `pending-${userId}-${triggerId}`, userId, triggerId, isSubscribed }];
      });
      return { previous };
    },
    onSuccess: (sub, { name, triggerName }) =>
      toast({
        title: "Subscription Updated",
        description: `${name} ${sub.isSubscribed ? "will now receive" : "will no longer receive"} ${triggerName} e-mails.`,
        variant: "success",
      }),
    onError: (error, _v, context) => {
      queryClient.setQueryData(subscriptionsKey(dealershipId), context?.previous);
      failure("Update Failed", "Failed to update subscription")(error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey(dealershipId) }),
  });
}
