import { useMutation, useQuery, useQueryClient, type QueryClient, type UseMutationResult } from "@tanstack/react-query";
import { createContext, useContext, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router";
import type { LoginInput, RegisterInput } from "../../shared/schemas/auth";
import type { CurrentUser } from "../../shared/schemas/responses/auth";
import { api, apiRequest, errorStatus, serverMessage } from "../lib/api";
import { beginSignOut } from "../lib/query-client";
import { isDealershipSpecificKey } from "../lib/query-key";
import { toast } from "../lib/toast";
import { DEALERSHIPS_KEY, PLATFORM_ADMIN_STATUS_KEY, USER_KEY } from "./keys";
import { clearPersonalStorage, takeRedirectPath } from "./session-storage";
import { nextPathFrom } from "./sign-in-first";

// Authentication state and actions (part 1 §4, §7, §8). Wrap the app in <AuthProvider>; read it with useAuth().

/** Login answers the user, or (with two-factor, team issue) {requiresTwoFactor: true}. */
export type LoginResult = CurrentUser | { requiresTwoFactor: true };

interface AuthContextValue {
  user: CurrentUser | null;
  isLoading: boolean;
  error: Error | null;
  loginMutation: UseMutationResult<LoginResult, Error, LoginInput>;
  registerMutation: UseMutationResult<LoginResult, Error, RegisterInput>;
  logoutMutation: UseMutationResult<void, Error, void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** GET /api/user: 401 means nobody is signed in (null), not an error. */
async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await api.get<CurrentUser>("/api/user");
  } catch (error) {
    if (errorStatus(error) === 401) return null;
    throw error;
  }
}

/** Before login: forget whoever was here and everything about their dealerships (part 1 §4). */
export function forgetSignedInData(queryClient: QueryClient): void {
  // Set to null rather than removed: removing would make the mounted user query fetch again and the screen
  // flash a spinner (losing what was typed in the form).
  queryClient.setQueryData(USER_KEY, null);
  queryClient.removeQueries({ queryKey: PLATFORM_ADMIN_STATUS_KEY, exact: true });
  queryClient.removeQueries({ queryKey: DEALERSHIPS_KEY, exact: true });
  queryClient.removeQueries({ predicate: (query) => isDealershipSpecificKey(query.queryKey) });
}

/**
 * After login or registration: store the user, clear all other cached data, and go to the stored redirect path
 * (removing it), else to the page the visitor opened signed out (/auth?next=, issue 12), else to / so that routing
 * decides.
 */
export function useCompleteSignIn(): (user: CurrentUser) => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  return (user) => {
    queryClient.clear();
    queryClient.setQueryData(USER_KEY, user);
    navigate(takeRedirectPath() ?? nextPathFrom(search) ?? "/", { replace: true });
  };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const completeSignIn = useCompleteSignIn();

  const userQuery = useQuery({
    queryKey: USER_KEY,
    queryFn: fetchCurrentUser,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    meta: { allowUnauthorized: true },
  });

  const loginMutation = useMutation<LoginResult, Error, LoginInput>({
    mutationFn: (input) => api.post<LoginResult>("/api/login", input),
    meta: { allowUnauthorized: true },
    onMutate: () => forgetSignedInData(queryClient),
    onSuccess: (result) => {
      if ("requiresTwoFactor" in result) return; // the login form switches to the code step
      completeSignIn(result);
      toast({ title: "Login Successful", description: "Welcome back!", variant: "success" });
    },
    onError: (error) => {
      toast({ title: "Login Failed", description: serverMessage(error, "Invalid email or password"), variant: "destructive" });
    },
  });

  const registerMutation = useMutation<LoginResult, Error, RegisterInput>({
    // The browser's time zone becomes a new dealership's clock (decision 191); an invited sign-up ignores it.
    mutationFn: (input) => api.post<LoginResult>("/api/register", { ...input, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
    meta: { allowUnauthorized: true },
    onMutate: () => forgetSignedInData(queryClient),
    onSuccess: (user) => {
      // An invited e-mail whose account has two-factor on joined; the register form moves to the code step (decision 168).
      if ("requiresTwoFactor" in user) return;
      completeSignIn(user);
      toast({ title: "Account created!", description: "Welcome to Showroom. Your dealership is ready.", variant: "success" });
    },
    onError: (error) => {
      toast({ title: "Registration failed", description: serverMessage(error, error.message), variant: "destructive" });
    },
  });

  const logoutMutation = useMutation<void, Error, void>({
    mutationFn: async () => {
      await apiRequest("POST", "/api/logout", undefined, { "Cache-Control": "no-cache" });
    },
    meta: { allowUnauthorized: true },
    onMutate: async () => {
      beginSignOut();
      await queryClient.cancelQueries();
    },
    // Success or failure alike (part 1 §4).
    onSettled: () => {
      queryClient.setQueryData(USER_KEY, null);
      queryClient.removeQueries({ queryKey: PLATFORM_ADMIN_STATUS_KEY, exact: true });
      clearPersonalStorage();
      window.location.href = "/auth";
    },
  });

  const value: AuthContextValue = {
    user: userQuery.data ?? null,
    isLoading: userQuery.isLoading,
    error: userQuery.error,
    loginMutation,
    registerMutation,
    logoutMutation,
  };
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error("useAuth must be used within an AuthProvider");
  return context;
}
