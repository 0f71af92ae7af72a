import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { ActivityEntry, ActivityFilter, CallInput, Note } from "../../shared/activity";
import { apiJson, apiRequest } from "../lib/api";
import { pathFromQueryKey } from "../lib/query-key";
import { nextPageUrl } from "./api";

// The lead's timeline, notes and calls (issue 26). The key sits under ["/api/leads", leadId], so every lead message on
// the socket (a colleague's note or call is "lead_activity") refreshes an open lead page's timeline.

export const activityKey = (leadId: string, filter: ActivityFilter) => ["/api/leads", leadId, "activity", `filter=${filter}`] as const;

interface ActivityPage {
  entries: ActivityEntry[];
  next: string | null;
}

async function fetchPage(url: string): Promise<ActivityPage> {
  const response = await apiRequest("GET", url);
  return { entries: (await response.json()) as ActivityEntry[], next: nextPageUrl(response.headers.get("link")) };
}

export function useLeadActivity(leadId: string, filter: ActivityFilter) {
  const key = activityKey(leadId, filter);
  const query = useInfiniteQuery<ActivityPage, Error, InfiniteData<ActivityPage, string>, typeof key, string>({
    queryKey: key,
    initialPageParam: pathFromQueryKey(key),
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: (previous) => previous,
  });
  return { ...query, entries: query.data?.pages.flatMap((p) => p.entries) ?? [] };
}

function useTimelineWrite<V, R>(leadId: string, write: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["/api/leads", leadId] }),
  });
}

export const useAddNote = (leadId: string) =>
  useTimelineWrite(leadId, (input: { body: string; mentions: string[] }) => apiJson<Note>("POST", `/api/leads/${encodeURIComponent(leadId)}/notes`, input));
export const useEditNote = (leadId: string) =>
  useTimelineWrite(leadId, ({ id, body }: { id: string; body: string }) => apiJson<Note>("PATCH", `/api/notes/${encodeURIComponent(id)}`, { body }));
export const useDeleteNote = (leadId: string) =>
  useTimelineWrite(leadId, (id: string) => apiJson<{ id: string }>("DELETE", `/api/notes/${encodeURIComponent(id)}`));
export const useLogCall = (leadId: string) =>
  useTimelineWrite(leadId, (input: CallInput) => apiJson<unknown>("POST", `/api/leads/${encodeURIComponent(leadId)}/calls`, input));
