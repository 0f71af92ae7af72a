import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { CACHE_TIMES, type LeadStatus } from "../../shared/constants";
import type { LeadSource } from "../../shared/lead-source";
import type { CreateLeadInput, DealershipMetrics, Lead, UpdateLeadInput } from "../../shared/schemas/lead";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type { DealershipMember } from "../../shared/schemas/responses/team";
import { api, apiRequest } from "../lib/api";
import { pathFromQueryKey } from "../lib/query-key";

// Data of the leads area (spec part 1 §7 leads and metrics calls, §9 freshness; decisions 010-015). Keys are the paths
// they read: ["/api/dealerships", id, "leads", "type=new"] reads /api/dealerships/{id}/leads?type=new. The answers'
// types come from the response schemas (decision 053).

export type LeadListType = "new" | "my" | "all";

export const leadsRootKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "leads"] as const;
export const leadKey = (leadId: string) => ["/api/leads", leadId] as const;
export const metricsKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "metrics"] as const;
export const membersKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "users"] as const;
/** Recently deleted (decision 214): refreshed with the lists, since a delete or a restore changes both. */
export const deletedLeadsKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "deleted-leads"] as const;

/** A list's filters: the search, the status and the source (issue 14), each left out when empty. */
export interface LeadListFilters {
  q?: string;
  status?: LeadStatus | "";
  source?: LeadSource | "";
}

/** The key of one list: its type, then the search, status and source when given (each `name=value` is a query parameter). */
export function leadListKey(dealershipId: string, type: LeadListType, filters: LeadListFilters = {}) {
  const parts: string[] = [];
  if (type !== "all") parts.push(`type=${type}`);
  // One loop rather than a line per filter: this module is part of the dashboard's first screen (budget, issue 12).
  for (const name of ["q", "status", "source"] as const) if (filters[name]) parts.push(`${name}=${filters[name]}`);
  return [...leadsRootKey(dealershipId), ...parts] as const;
}

const STALE: Record<LeadListType, number> = {
  new: CACHE_TIMES.newLeadsStale,
  my: CACHE_TIMES.myLeadsStale,
  all: CACHE_TIMES.leadsStale,
};

interface LeadPage {
  leads: Lead[];
  next: string | null;
}

/** The URL of rel="next" in a Link header, if any (decision 012). */
export function nextPageUrl(link: string | null): string | null {
  if (!link) return null;
  const match = /<([^>]+)>\s*;\s*rel="next"/.exec(link);
  return match ? match[1]! : null;
}

async function fetchPage(url: string): Promise<LeadPage> {
  const response = await apiRequest("GET", url);
  return { leads: (await response.json()) as Lead[], next: nextPageUrl(response.headers.get("link")) };
}

/**
 * A leads list, page after page (keyset pages of 100; "Load more" fetches the next). `leads` is every loaded row.
 * The search runs on the server (part 1 §5).
 */
export function useLeadList(dealershipId: string | undefined, type: LeadListType, filters: LeadListFilters = {}) {
  const key = leadListKey(dealershipId ?? "", type, filters);
  const query = useInfiniteQuery<LeadPage, Error, InfiniteData<LeadPage, string>, typeof key, string>({
    queryKey: key,
    enabled: Boolean(dealershipId),
    staleTime: STALE[type],
    initialPageParam: pathFromQueryKey(key),
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: (previous) => previous,
  });
  const leads = query.data?.pages.flatMap((p) => p.leads) ?? [];
  return { ...query, leads };
}

/** The first page of new leads: the sidebar badge (shown "100+" when more pages exist) and the dashboard. */
export function useNewLeadsCount(dealershipId: string | undefined): { count: number; more: boolean } | null {
  const list = useLeadList(dealershipId, "new");
  if (!list.data) return null;
  return { count: list.leads.length, more: list.hasNextPage };
}

/** The dashboard's Recent Leads: the newest few the user may see. */
export function useRecentLeads(dealershipId: string, limit: number) {
  return useQuery<Lead[]>({
    queryKey: [...leadsRootKey(dealershipId), `limit=${limit}`],
    staleTime: CACHE_TIMES.leadsStale,
  });
}

export function useLead(leadId: string | undefined) {
  return useQuery<Lead>({
    queryKey: leadKey(leadId ?? ""),
    enabled: Boolean(leadId),
    staleTime: CACHE_TIMES.leadsStale,
    // A missing lead is an answer ("Lead Not Found"), not something to retry.
    retry: false,
  });
}

export function useMetrics(dealershipId: string) {
  return useQuery<DealershipMetrics>({
    queryKey: metricsKey(dealershipId),
    staleTime: CACHE_TIMES.metricsStale,
    retry: 1,
  });
}

/** Active members of the dealership (the assignee choice lists its sales reps). */
export function useDealershipMembers(dealershipId: string | undefined, enabled = true) {
  return useQuery<DealershipMember[]>({ queryKey: membersKey(dealershipId ?? ""), enabled: Boolean(dealershipId) && enabled });
}

/** After a lead write: every leads list and the metrics; the lead itself when known. */
export function invalidateLeads(queryClient: QueryClient, dealershipId: string, leadId?: string): void {
  void queryClient.invalidateQueries({ queryKey: leadsRootKey(dealershipId) });
  void queryClient.invalidateQueries({ queryKey: metricsKey(dealershipId) });
  void queryClient.invalidateQueries({ queryKey: deletedLeadsKey(dealershipId) });
  if (leadId) void queryClient.invalidateQueries({ queryKey: leadKey(leadId) });
}

export function useCreateLead(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Lead, Error, CreateLeadInput>({
    mutationFn: (input) => api.post<Lead>(`/api/dealerships/${dealershipId}/leads`, input),
    onSuccess: () => invalidateLeads(queryClient, dealershipId),
  });
}

type PageSnapshot = Array<[readonly unknown[], InfiniteData<LeadPage> | Lead[] | undefined]>;

/** Takes a lead out of every cached list at once; answers what to put back if the call fails. */
function removeFromLists(queryClient: QueryClient, dealershipId: string, leadId: string): PageSnapshot {
  const snapshot = queryClient.getQueriesData<InfiniteData<LeadPage> | Lead[]>({ queryKey: leadsRootKey(dealershipId) });
  for (const [key, data] of snapshot) {
    if (!data) continue;
    if (Array.isArray(data)) {
      queryClient.setQueryData(key, data.filter((l) => l.id !== leadId));
    } else {
      queryClient.setQueryData<InfiniteData<LeadPage>>(key, {
        ...data,
        pages: data.pages.map((p) => ({ ...p, leads: p.leads.filter((l) => l.id !== leadId) })),
      });
    }
  }
  return snapshot;
}

function restoreLists(queryClient: QueryClient, snapshot: PageSnapshot | undefined): void {
  for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
}

/**
 * Claim (part 1 §4): the lead leaves the new-leads list at once and comes back if the call fails. Lists that would
 * show it claimed (My Clients) refetch after. The winner is decided by the server; 409 "already claimed" is a loss.
 */
export function useClaimLead(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Lead, Error, string, { snapshot: PageSnapshot }>({
    mutationFn: (leadId) => api.post<Lead>(`/api/leads/${leadId}/claim`),
    onMutate: async (leadId) => {
      await queryClient.cancelQueries({ queryKey: leadsRootKey(dealershipId) });
      const snapshot = queryClient
        .getQueriesData<InfiniteData<LeadPage> | Lead[]>({ queryKey: leadsRootKey(dealershipId) })
        .filter(([key]) => key.includes("type=new"));
      for (const [key, data] of snapshot) {
        if (data && !Array.isArray(data)) {
          queryClient.setQueryData<InfiniteData<LeadPage>>(key, {
            ...data,
            pages: data.pages.map((p) => ({ ...p, leads: p.leads.filter((l) => l.id !== leadId) })),
          });
        }
      }
      return { snapshot };
    },
    onError: (_error, _leadId, context) => restoreLists(queryClient, context?.snapshot),
    onSuccess: (lead) => queryClient.setQueryData(leadKey(lead.id), lead),
    onSettled: (_data, _error, leadId) => invalidateLeads(queryClient, dealershipId, leadId),
  });
}

/** Delete: the row stays (faded) until the server answers, then leaves every list. */
export function useDeleteLead(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<MessageResponse, Error, string>({
    mutationFn: (leadId) => api.delete<MessageResponse>(`/api/leads/${leadId}`),
    onSuccess: (_data, leadId) => {
      removeFromLists(queryClient, dealershipId, leadId);
      queryClient.removeQueries({ queryKey: leadKey(leadId) });
      invalidateLeads(queryClient, dealershipId);
    },
  });
}

export function useUpdateLead(dealershipId: string, leadId: string) {
  const queryClient = useQueryClient();
  return useMutation<Lead, Error, UpdateLeadInput>({
    mutationFn: (input) => api.patch<Lead>(`/api/leads/${leadId}`, input),
    onSuccess: (lead) => {
      queryClient.setQueryData(leadKey(leadId), lead);
      invalidateLeads(queryClient, dealershipId);
    },
  });
}

export function useUpdateLeadStatus(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Lead, Error, { leadId: string; status: LeadStatus; lostReason?: string }>({
    mutationFn: ({ leadId, status, lostReason }) => api.patch<Lead>(`/api/leads/${leadId}/status`, lostReason ? { status, lostReason } : { status }),
    onSuccess: (lead) => {
      queryClient.setQueryData(leadKey(lead.id), lead);
      invalidateLeads(queryClient, dealershipId);
    },
  });
}

export function useSendReminder(dealershipId: string | undefined) {
  return useMutation<MessageResponse, Error, void>({
    mutationFn: async () => {
      if (!dealershipId) throw new Error("No dealership selected");
      return api.post<MessageResponse>(`/api/dealerships/${dealershipId}/leads/remind-unattended`);
    },
  });
}
