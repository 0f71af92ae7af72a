import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DealershipRole } from "../../shared/constants";
import {
  PLATFORM_DEALERSHIPS_STALE_MS,
  PLATFORM_OVERVIEW_RETRIES,
  PLATFORM_OVERVIEW_STALE_MS,
  type DealershipCreateInput,
  type DealershipDetailsInput,
  type PlatformInviteInput,
  type PlatformUserUpdateInput,
} from "../../shared/schemas/platform";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type {
  DealershipCreated,
  DealershipDeleted,
  DealershipPage,
  MaintenanceReport,
  PlatformActivity,
  PlatformDealership,
  PlatformOverview,
  PlatformUser,
  PlatformUserPage,
  UserDeleted,
} from "../../shared/schemas/responses/platform";
import type { DealershipMember, Invitation, MemberRemoved, MemberRoleChanged } from "../../shared/schemas/responses/team";
import { PLATFORM_ADMIN_STATUS_KEY } from "../auth/keys";
import { api, errorStatus, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";

// Data of platform administration (part 2 §2, §7, §8). Keys are the paths they read (decision 040); the answers'
// types come from the response schemas (decision 053).

export const OVERVIEW_KEY = ["/api/platform/overview"] as const;
export const ACTIVITY_KEY = ["/api/platform/activity"] as const;
const DEALERSHIPS_ROOT = ["/api/platform/dealerships"] as const;
const USERS_ROOT = ["/api/platform/users"] as const;

export const dealershipsKey = (search: string, page: number) => [...DEALERSHIPS_ROOT, `search=${search}`, `page=${page}`] as const;
export const membersKey = (dealershipId: string) => [...DEALERSHIPS_ROOT, dealershipId, "users"] as const;
export const invitesKey = (dealershipId: string) => [...DEALERSHIPS_ROOT, dealershipId, "invites"] as const;
export const usersKey = (show: "admins" | "all", search: string, page: number) => [...USERS_ROOT, `show=${show}`, `search=${search}`, `page=${page}`] as const;

/** Part 2 §7: retried up to 2 times, never on 401 (that is the "Authentication Issue"); fresh for 30 s. */
export function useOverview() {
  return useQuery<PlatformOverview>({
    queryKey: OVERVIEW_KEY,
    staleTime: PLATFORM_OVERVIEW_STALE_MS,
    retry: (failureCount, error) => errorStatus(error) !== 401 && failureCount < PLATFORM_OVERVIEW_RETRIES,
    meta: { allowUnauthorized: true },
  });
}

/** On the Overview beside the totals: a lost session shows the "Authentication Issue" there, as the totals' 401 does. */
export const useActivity = () =>
  useQuery<PlatformActivity[]>({ queryKey: ACTIVITY_KEY, staleTime: PLATFORM_OVERVIEW_STALE_MS, meta: { allowUnauthorized: true } });

/** Part 2 §7: the dealerships list is fresh for 5 s and refetches on window focus. */
export function useDealerships(search: string, page: number) {
  return useQuery<DealershipPage>({
    queryKey: dealershipsKey(search, page),
    staleTime: PLATFORM_DEALERSHIPS_STALE_MS,
    refetchOnWindowFocus: true,
    placeholderData: keepPreviousData,
  });
}

export const useMembers = (dealershipId: string) => useQuery<DealershipMember[]>({ queryKey: membersKey(dealershipId) });
export const useInvitations = (dealershipId: string) => useQuery<Invitation[]>({ queryKey: invitesKey(dealershipId) });

export function useUsers(show: "admins" | "all", search: string, page: number) {
  return useQuery<PlatformUserPage>({
    queryKey: usersKey(show, search, page),
    staleTime: PLATFORM_DEALERSHIPS_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

function failure(title: string, fallback: string) {
  return (error: Error) => toast({ title, description: serverMessage(error, fallback), variant: "destructive" });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** After any change: the lists, the totals and the audit log are read again. */
function useRefreshPlatform() {
  const queryClient = useQueryClient();
  return (...roots: ReadonlyArray<readonly string[]>) => {
    for (const root of [...roots, OVERVIEW_KEY, ACTIVITY_KEY]) void queryClient.invalidateQueries({ queryKey: root });
  };
}

// ---- Dealerships ----

export function useCreateDealership() {
  const refresh = useRefreshPlatform();
  return useMutation<DealershipCreated, Error, DealershipCreateInput>({
    mutationFn: (input) => api.post<DealershipCreated>("/api/platform/dealerships", input),
    onSuccess: ({ dealership, invitation }) => {
      refresh(DEALERSHIPS_ROOT);
      toast({
        title: "Dealership Created",
        description: `${dealership.name} was created and an invitation was sent to ${invitation.email} to join as its admin.`,
        variant: "success",
      });
    },
    onError: failure("Creation Failed", "Failed to create dealership"),
  });
}

export function useUpdateDealership(dealershipId: string) {
  const refresh = useRefreshPlatform();
  return useMutation<PlatformDealership, Error, DealershipDetailsInput>({
    mutationFn: (input) => api.put<PlatformDealership>(`/api/platform/dealerships/${dealershipId}`, input),
    onSuccess: (dealership) => {
      refresh(DEALERSHIPS_ROOT);
      toast({ title: "Dealership Updated", description: `${dealership.name} was saved.`, variant: "success" });
    },
    onError: failure("Update Failed", "Failed to update dealership"),
  });
}

export function useDeleteDealership() {
  const refresh = useRefreshPlatform();
  return useMutation<DealershipDeleted, Error, PlatformDealership>({
    mutationFn: (dealership) => api.delete<DealershipDeleted>(`/api/platform/dealerships/${dealership.id}`),
    onSuccess: (result, dealership) => {
      refresh(DEALERSHIPS_ROOT, USERS_ROOT);
      toast({
        title: "Dealership Deleted",
        description: `${dealership.name} was deleted: ${plural(result.removedMembers, "member")} removed, ${plural(result.returnedLeads, "claimed lead")} returned to unclaimed.`,
        variant: "success",
      });
    },
    onError: failure("Delete Failed", "Failed to delete dealership"),
  });
}

// ---- A dealership's members and invitations ----

export function useChangeMemberRole(dealershipId: string) {
  const refresh = useRefreshPlatform();
  return useMutation<MemberRoleChanged, Error, { userId: string; role: DealershipRole; name: string }>({
    mutationFn: ({ userId, role }) => api.put<MemberRoleChanged>(`/api/platform/dealerships/${dealershipId}/users/${userId}/role`, { role }),
    onSuccess: (_r, { name }) => {
      refresh(membersKey(dealershipId), USERS_ROOT);
      toast({ title: "Role Updated", description: `${name}'s role was changed.`, variant: "success" });
    },
    onError: failure("Update Failed", "Failed to update user role"),
  });
}

export function useRemoveMember(dealershipId: string) {
  const refresh = useRefreshPlatform();
  return useMutation<MemberRemoved, Error, { userId: string; name: string }>({
    mutationFn: ({ userId }) => api.delete<MemberRemoved>(`/api/platform/dealerships/${dealershipId}/users/${userId}`),
    onSuccess: (result, { name }) => {
      refresh(membersKey(dealershipId), USERS_ROOT);
      const leads = result.returnedLeads;
      toast({ title: "User Removed", description: `${name} was removed.${leads ? ` ${plural(leads, "claimed lead")} returned to unclaimed.` : ""}`, variant: "success" });
    },
    onError: failure("Remove Failed", "Failed to remove user"),
  });
}

export function useInvite(dealershipId: string) {
  const refresh = useRefreshPlatform();
  return useMutation<Invitation, Error, PlatformInviteInput>({
    mutationFn: (input) => api.post<Invitation>(`/api/platform/dealerships/${dealershipId}/invite`, input),
    onSuccess: (invite) => {
      refresh(invitesKey(dealershipId));
      toast({ title: "Invitation Sent", description: `An invitation was e-mailed to ${invite.email}.`, variant: "success" });
    },
    onError: failure("Invitation Failed", "Failed to send invitation"),
  });
}

export function useResendInvitation(dealershipId: string) {
  const refresh = useRefreshPlatform();
  return useMutation<Invitation, Error, Invitation>({
    mutationFn: (invite) => api.post<Invitation>(`/api/platform/invites/${invite.id}/resend`),
    onSuccess: (invite) => {
      refresh(invitesKey(dealershipId));
      toast({ title: "Invitation Resent", description: `A new invitation was e-mailed to ${invite.email}.`, variant: "success" });
    },
    onError: failure("Resend Failed", "Failed to resend invitation"),
  });
}

export function useDeleteInvitation(dealershipId: string) {
  const refresh = useRefreshPlatform();
  return useMutation<MessageResponse, Error, Invitation>({
    mutationFn: (invite) => api.delete<MessageResponse>(`/api/platform/invites/${invite.id}`),
    onSuccess: (_r, invite) => {
      refresh(invitesKey(dealershipId));
      toast({ title: "Invitation Deleted", description: `The invitation for ${invite.email} was withdrawn.`, variant: "success" });
    },
    onError: failure("Delete Failed", "Failed to delete invitation"),
  });
}

// ---- Users and platform admins ----

/** The signed-in admin's own status is read again too: revoking or granting may concern them. */
function useRefreshUsers() {
  const refresh = useRefreshPlatform();
  const queryClient = useQueryClient();
  return () => {
    refresh(USERS_ROOT, DEALERSHIPS_ROOT);
    void queryClient.invalidateQueries({ queryKey: PLATFORM_ADMIN_STATUS_KEY });
  };
}

export function useGrantAdmin() {
  const refresh = useRefreshUsers();
  return useMutation<PlatformUser, Error, { email: string; quiet?: boolean }>({
    mutationFn: ({ email }) => api.post<PlatformUser>("/api/platform/admins/grant", { email }),
    onSuccess: (user, { quiet }) => {
      refresh();
      if (!quiet) toast({ title: "Admin Access Granted", description: `${user.email} is now a platform admin.`, variant: "success" });
    },
    onError: failure("Grant Failed", "Failed to grant admin access"),
  });
}

export function useRevokeAdmin() {
  const refresh = useRefreshUsers();
  return useMutation<MessageResponse, Error, { user: PlatformUser; quiet?: boolean }>({
    mutationFn: ({ user }) => api.delete<MessageResponse>(`/api/platform/admins/${user.id}`),
    onSuccess: (_r, { user, quiet }) => {
      refresh();
      if (!quiet) toast({ title: "Admin Access Revoked", description: `${user.email} is no longer a platform admin.`, variant: "success" });
    },
    onError: failure("Revoke Failed", "Failed to revoke admin access"),
  });
}

export function useUpdateUser() {
  const refresh = useRefreshUsers();
  return useMutation<PlatformUser, Error, { id: string; input: PlatformUserUpdateInput }>({
    mutationFn: ({ id, input }) => api.patch<PlatformUser>(`/api/platform/users/${id}`, input),
    onSuccess: (user) => {
      refresh();
      toast({ title: "User Updated", description: `${user.email} was saved.`, variant: "success" });
    },
    onError: failure("Update Failed", "Failed to update user"),
  });
}

export function useDeleteUser() {
  const refresh = useRefreshUsers();
  return useMutation<UserDeleted, Error, PlatformUser>({
    mutationFn: (user) => api.delete<UserDeleted>(`/api/platform/users/${user.id}`),
    onSuccess: (result, user) => {
      refresh();
      toast({
        title: "User Deleted",
        description: `${user.email} was deleted.${result.returnedLeads ? ` ${plural(result.returnedLeads, "claimed lead")} returned to unclaimed.` : ""}`,
        variant: "success",
      });
    },
    onError: failure("Delete Failed", "Failed to delete user"),
  });
}

// ---- Housekeeping ----

export function useMaintenance() {
  const refresh = useRefreshPlatform();
  return useMutation<MaintenanceReport, Error, void>({
    mutationFn: () => api.post<MaintenanceReport>("/api/platform/maintenance"),
    onSuccess: (report) => {
      refresh();
      toast({ title: "Maintenance Complete", description: report.message, variant: "success" });
    },
    onError: failure("Maintenance Failed", "System maintenance could not run"),
  });
}
