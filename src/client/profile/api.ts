import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountEmailCodeInput, EmailChangeRequestInput, PasswordChangeInput, ProfileInput } from "../../shared/schemas/profile";
import type { CurrentUser } from "../../shared/schemas/responses/auth";
import type {
  ActiveSession,
  AvatarResponse,
  BackupCodes,
  EmailChangeRequested,
  PasswordChanged,
  TwoFactorSetup,
  TwoFactorStatus,
} from "../../shared/schemas/responses/profile";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type { DisableTwoFactorInput, RegenerateBackupCodesInput, VerifySetupInput } from "../../shared/schemas/two-factor";
import { USER_KEY } from "../auth/keys";
import { api, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";

// Data of the profile screen (part 2 §2, §7, §8). Keys are the paths they read (part 1 §7); types come from the
// response schemas (decision 053). Toast titles are the spec's.

export const TWO_FACTOR_STATUS_KEY = ["/api/auth/2fa/status"] as const;
export const SESSIONS_KEY = ["/api/user/sessions"] as const;

export const useTwoFactorStatus = () => useQuery<TwoFactorStatus>({ queryKey: TWO_FACTOR_STATUS_KEY });
export const useActiveSessions = () => useQuery<ActiveSession[]>({ queryKey: SESSIONS_KEY });

function failure(title: string, fallback: string) {
  return (error: Error) => toast({ title, description: serverMessage(error, fallback), variant: "destructive" });
}

/** Keeps the cached user (header, profile) in step with a change. */
function useSetUser() {
  const queryClient = useQueryClient();
  return (change: Partial<CurrentUser>) =>
    queryClient.setQueryData<CurrentUser | null>(USER_KEY, (user) => (user ? { ...user, ...change } : user));
}

export function useUpdateProfile() {
  const setUser = useSetUser();
  return useMutation<CurrentUser, Error, ProfileInput>({
    mutationFn: (input) => api.patch<CurrentUser>("/api/user/profile", input),
    onSuccess: (user) => {
      setUser(user);
      toast({ title: "Profile Updated", description: "Your personal information has been saved.", variant: "success" });
    },
    // The form shows per-field answers itself; other failures get the toast.
  });
}

// ---- The account's e-mail (decision 169): prove it, or change it to a proven new one ----

/** A code to the account's own address. */
export function useRequestOwnAddressCode() {
  return useMutation<MessageResponse, Error, void>({
    mutationFn: () => api.post<MessageResponse>("/api/user/email-verification/request"),
    onSuccess: ({ message }) => toast({ title: "Verification Code Sent", description: message, variant: "success" }),
    onError: failure("Failed to Send Code", "Unable to send the verification code. Please try again."),
  });
}

export function useConfirmOwnAddress() {
  const setUser = useSetUser();
  return useMutation<CurrentUser, Error, AccountEmailCodeInput>({
    mutationFn: (input) => api.post<CurrentUser>("/api/user/email-verification/confirm", input),
    onSuccess: (user) => {
      setUser(user);
      toast({ title: "E-mail Verified", description: `${user.email} is confirmed as yours.`, variant: "success" });
    },
    // The dialog shows the code's error on its field.
  });
}

/** The password (and second factor) first; the code then goes to the new address. */
export function useRequestEmailChange() {
  return useMutation<EmailChangeRequested, Error, EmailChangeRequestInput>({
    mutationFn: (input) => api.post<EmailChangeRequested>("/api/user/email-change/request", input),
    onSuccess: ({ message }) => toast({ title: "Verification Code Sent", description: message, variant: "success" }),
  });
}

export function useConfirmEmailChange() {
  const setUser = useSetUser();
  return useMutation<CurrentUser, Error, AccountEmailCodeInput>({
    mutationFn: (input) => api.post<CurrentUser>("/api/user/email-change/confirm", input),
    onSuccess: (user) => {
      setUser(user);
      toast({ title: "E-mail Changed", description: `You now sign in with ${user.email}.`, variant: "success" });
    },
  });
}

export function useUploadAvatar() {
  const setUser = useSetUser();
  return useMutation<AvatarResponse, Error, File>({
    mutationFn: (file) => {
      const body = new FormData();
      body.append("avatar", file);
      return api.post<AvatarResponse>("/api/user/avatar", body);
    },
    onSuccess: ({ profileImageUrl }) => {
      setUser({ profileImageUrl });
      toast({ title: "Avatar Updated", description: "Your profile picture has been changed.", variant: "success" });
    },
    onError: failure("Upload Failed", "Failed to upload avatar"),
  });
}

export function useChangePassword() {
  const setUser = useSetUser();
  const queryClient = useQueryClient();
  return useMutation<PasswordChanged, Error, PasswordChangeInput>({
    mutationFn: (input) => api.patch<PasswordChanged>("/api/user/password", input),
    onSuccess: ({ passwordChangedAt }) => {
      setUser({ passwordChangedAt });
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      toast({ title: "Password Changed", description: "Your other devices have been signed out.", variant: "success" });
    },
  });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation<{ ended: number }, Error, void>({
    mutationFn: () => api.post<{ ended: number }>("/api/user/sessions/sign-out-others"),
    onSuccess: ({ ended }) => {
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      toast({
        title: "Signed Out",
        description: ended === 1 ? "1 other session was signed out." : `${ended} other sessions were signed out.`,
        variant: "success",
      });
    },
    onError: failure("Sign Out Failed", "Failed to sign out other sessions"),
  });
}

export function useStartTwoFactorSetup() {
  return useMutation<TwoFactorSetup, Error, void>({
    mutationFn: () => api.post<TwoFactorSetup>("/api/auth/2fa/setup"),
    onError: failure("Setup Failed", "Failed to start two-factor setup"),
  });
}

export function useVerifyTwoFactorSetup() {
  const queryClient = useQueryClient();
  const setUser = useSetUser();
  return useMutation<BackupCodes, Error, VerifySetupInput>({
    mutationFn: (input) => api.post<BackupCodes>("/api/auth/2fa/verify-setup", input),
    onSuccess: () => {
      setUser({ twoFactorEnabled: true });
      void queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_KEY });
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      toast({ title: "2FA Enabled", description: "Save your backup codes somewhere safe.", variant: "success" });
    },
    onError: failure("Verification Failed", "Invalid verification code"),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  const setUser = useSetUser();
  return useMutation<TwoFactorStatus, Error, DisableTwoFactorInput>({
    mutationFn: (input) => api.post<TwoFactorStatus>("/api/auth/2fa/disable", input),
    onSuccess: (status) => {
      setUser({ twoFactorEnabled: false });
      queryClient.setQueryData(TWO_FACTOR_STATUS_KEY, status);
      toast({ title: "2FA Disabled", description: "Two-factor authentication has been turned off.", variant: "success" });
    },
    onError: failure("Disable Failed", "Failed to disable two-factor authentication"),
  });
}

/** The password or a current authenticator code (decision 169); the dialog shows a refused one on its field. */
export function useRegenerateBackupCodes() {
  const queryClient = useQueryClient();
  return useMutation<BackupCodes, Error, RegenerateBackupCodesInput>({
    mutationFn: (input) => api.post<BackupCodes>("/api/auth/2fa/regenerate-backup-codes", input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_KEY });
      toast({ title: "Backup Codes Regenerated", description: "Your old backup codes no longer work.", variant: "success" });
    },
  });
}
