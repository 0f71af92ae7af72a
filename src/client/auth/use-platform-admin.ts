import { useQuery } from "@tanstack/react-query";
import { CACHE_TIMES } from "../../shared/constants";
import type { PlatformAdminStatus } from "../../shared/schemas/responses/auth";
import { errorStatus } from "../lib/api";
import { useAuth } from "./auth-provider";
import { PLATFORM_ADMIN_STATUS_KEY } from "./keys";

const MAX_RETRIES = 3;

/** part 1 §7: only when signed in; fresh 30 s; up to 3 retries but none on 401; refetched on window focus. */
export function usePlatformAdminStatus() {
  const { user } = useAuth();
  const query = useQuery<PlatformAdminStatus>({
    queryKey: PLATFORM_ADMIN_STATUS_KEY,
    enabled: Boolean(user),
    staleTime: CACHE_TIMES.platformAdminStatusStale,
    retry: (failureCount, error) => errorStatus(error) !== 401 && failureCount < MAX_RETRIES,
    refetchOnWindowFocus: true,
    meta: { allowUnauthorized: true },
  });
  return {
    isPlatformAdmin: query.data?.isPlatformAdmin ?? false,
    /** True until the first answer arrives for a signed-in user. */
    isLoading: Boolean(user) && query.isPending,
    isFetching: query.isFetching,
    refetch: query.refetch,
  };
}
