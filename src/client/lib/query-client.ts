import { MutationCache, QueryCache, QueryClient, type QueryFunctionContext } from "@tanstack/react-query";
import { CACHE_TIMES, LOGGED_OUT_REDIRECT_DELAY_MS, READ_RETRIES, WRITE_RETRIES } from "../../shared/constants";
import { apiJson, errorStatus, isNetworkError, isUnauthorizedError } from "./api";
import { pathFromQueryKey } from "./query-key";
import { toastAndHold } from "./toast";

// The query client with the settings of part 1 §9, and the logged-out handling of part 1 §2.1 / §8.

/** Reads fetch the path built from their key (part 1 §7). */
export async function defaultQueryFn({ queryKey }: QueryFunctionContext): Promise<unknown> {
  const data = await apiJson<unknown>("GET", pathFromQueryKey(queryKey));
  // TanStack Query refuses undefined as data.
  return data === undefined ? null : data;
}

export const readRetry = (failureCount: number, error: unknown) => failureCount < READ_RETRIES && isNetworkError(error);
export const writeRetry = (failureCount: number, error: unknown) => failureCount < WRITE_RETRIES && isNetworkError(error);

let redirecting = false;

/**
 * Called when the person signs out on purpose: calls still in flight will answer 401, which must not be taken for a
 * lost session (no "Unauthorized" toast, no second navigation).
 */
export function beginSignOut(): void {
  redirecting = true;
}

/**
 * The session is gone: a destructive toast, then the browser goes to /api/login (which the server sends to /auth)
 * after 500 ms. Runs once however many requests fail together.
 */
export function handleLoggedOut(): void {
  if (redirecting) return;
  redirecting = true;
  toastAndHold({ title: "Unauthorized", description: "You are logged out. Logging in again...", variant: "destructive" });
  setTimeout(() => {
    window.location.href = "/api/login";
  }, LOGGED_OUT_REDIRECT_DELAY_MS);
}

export interface QueryMeta extends Record<string, unknown> {
  /** This query answers 401 as a normal outcome (the current-user and admin-status reads): no logged-out redirect. */
  allowUnauthorized?: boolean;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        if ((query.meta as QueryMeta | undefined)?.allowUnauthorized) return;
        if (errorStatus(error) === 401 || isUnauthorizedError(error)) handleLoggedOut();
      },
    }),
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        if ((mutation.meta as QueryMeta | undefined)?.allowUnauthorized) return;
        if (isUnauthorizedError(error)) handleLoggedOut();
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        staleTime: CACHE_TIMES.defaultStale,
        gcTime: CACHE_TIMES.defaultGc,
        refetchOnWindowFocus: false,
        refetchOnReconnect: true,
        refetchInterval: false,
        retry: readRetry,
      },
      mutations: { retry: writeRetry },
    },
  });
}

export const queryClient = createQueryClient();
