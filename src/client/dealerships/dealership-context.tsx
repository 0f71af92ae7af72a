import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, type ReactNode } from "react";
import { CACHE_TIMES, type DealershipRole } from "../../shared/constants";
import { can, type Capability } from "../../shared/permissions";
import type { CurrentDealership, CurrentUser, DealershipSummary, MemberRole } from "../../shared/schemas/responses/auth";
import { useAuth } from "../auth/auth-provider";
import { DEALERSHIPS_KEY, USER_KEY } from "../auth/keys";
import { api, serverMessage } from "../lib/api";
import { isDealershipSpecificKey } from "../lib/query-key";
import { toast } from "../lib/toast";

// The current dealership (part 1 §1): user.currentDealershipId when it is in the user's list, otherwise the first.
// Every dealership-scoped query key starts ["/api/dealerships", dealership.id, ...] so switching can drop them.

interface DealershipContextValue {
  dealerships: DealershipSummary[];
  /** null when the user belongs to no dealership. */
  dealership: DealershipSummary | null;
  isLoading: boolean;
  /** The list could not be loaded (not a 401: that signs the person out). */
  isError: boolean;
  retry: () => void;
  switchDealership: (dealershipId: string) => void;
  isSwitching: boolean;
}

const DealershipContext = createContext<DealershipContextValue | null>(null);

export function pickCurrentDealership(dealerships: DealershipSummary[], currentId: string | null | undefined): DealershipSummary | null {
  return dealerships.find((d) => d.id === currentId) ?? dealerships[0] ?? null;
}

export function DealershipProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const list = useQuery<DealershipSummary[]>({
    queryKey: DEALERSHIPS_KEY,
    enabled: Boolean(user),
    staleTime: CACHE_TIMES.dealershipsStale,
  });

  const switchMutation = useMutation({
    mutationFn: (dealershipId: string) => api.post<CurrentDealership>("/api/user/current-dealership", { dealershipId }),
    onSuccess: ({ currentDealershipId }) => {
      queryClient.removeQueries({ predicate: (query) => isDealershipSpecificKey(query.queryKey) });
      queryClient.setQueryData<CurrentUser | null>(USER_KEY, (old) => (old ? { ...old, currentDealershipId } : old));
      const name = list.data?.find((d) => d.id === currentDealershipId)?.name;
      toast({ title: "Dealership switched", description: name ? `You are now working in ${name}.` : undefined, variant: "success" });
    },
    onError: (error) => {
      toast({ title: "Switch failed", description: serverMessage(error, "Could not switch dealership. Please try again."), variant: "destructive" });
    },
  });

  const dealerships = list.data ?? [];
  const value: DealershipContextValue = {
    dealerships,
    dealership: pickCurrentDealership(dealerships, user?.currentDealershipId),
    isLoading: Boolean(user) && list.isPending,
    isError: list.isError,
    retry: () => void list.refetch(),
    switchDealership: (id) => switchMutation.mutate(id),
    isSwitching: switchMutation.isPending,
  };
  return <DealershipContext.Provider value={value}>{children}</DealershipContext.Provider>;
}

export function useCurrentDealership(): DealershipContextValue {
  const context = useContext(DealershipContext);
  if (!context) throw new Error("useCurrentDealership must be used within a DealershipProvider");
  return context;
}

/**
 * Only the role is read from the answer: when the call confirms the role the list already said, nothing that asks
 * for it draws again (issue 32: the shell, its links and the dashboard were drawn a second time, in one blocking task).
 */
const roleOf = (answer: MemberRole): DealershipRole => answer.role;

/** The user's role in the current dealership, from GET /api/dealerships/{id}/users/{userId}/role (part 1 §6). */
export function useRole(): { role: DealershipRole | null; isLoading: boolean } {
  const { user } = useAuth();
  const { dealership } = useCurrentDealership();
  const query = useQuery<MemberRole, Error, DealershipRole>({
    queryKey: ["/api/dealerships", dealership?.id, "users", user?.id, "role"],
    enabled: Boolean(user && dealership),
    staleTime: CACHE_TIMES.dealershipsStale,
    // The list already says the role: show it at once, the role call confirms it.
    placeholderData: dealership ? { role: dealership.role } : undefined,
    select: roleOf,
  });
  return { role: query.data ?? null, isLoading: Boolean(dealership) && query.isPending };
}

/** Whether the user may do something in the current dealership (src/shared/permissions.ts). The server decides too. */
export function useCan(capability: Capability): boolean {
  const { role } = useRole();
  return can(role, capability);
}
