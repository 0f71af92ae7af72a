import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { Notification, NotificationCount } from "../../shared/schemas/responses/notifications";
import { api } from "../lib/api";
import { NOTIFICATION_COUNT_REFETCH_MS, NOTIFICATION_COUNT_STALE_MS, NOTIFICATIONS_STALE_MS } from "../realtime/constants";

// The header bell's data (part 2 §7 Notifications and real time, §9 freshness). Keys are the paths they read
// (decision 040); the count's key sits under the list's, so refreshing the list's key refreshes both.

/** A notification as GET /api/dealerships/{id}/notifications lists it (part 2 §3; decision 053). */
export type AppNotification = Notification;

export const notificationsKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "notifications"] as const;
export const notificationCountKey = (dealershipId: string) => [...notificationsKey(dealershipId), "count"] as const;

/** The list, asked only while the popover is open; fresh for 30 s. */
export function useNotifications(dealershipId: string | undefined, enabled: boolean) {
  return useQuery<AppNotification[]>({
    queryKey: notificationsKey(dealershipId ?? ""),
    enabled: Boolean(dealershipId) && enabled,
    staleTime: NOTIFICATIONS_STALE_MS,
  });
}

/** The unread count behind the badge: fresh 5 min, refetched every 5 min, not on window focus, on reconnect. */
export function useNotificationCount(dealershipId: string | undefined) {
  return useQuery<NotificationCount>({
    queryKey: notificationCountKey(dealershipId ?? ""),
    enabled: Boolean(dealershipId),
    staleTime: NOTIFICATION_COUNT_STALE_MS,
    refetchInterval: NOTIFICATION_COUNT_REFETCH_MS,
    refetchOnWindowFocus: false,
    refetchOnReconnect: true,
  });
}

export function invalidateNotifications(queryClient: QueryClient, dealershipId: string): void {
  void queryClient.invalidateQueries({ queryKey: notificationsKey(dealershipId) });
}

/** Shows the change at once (the badge and the list agree), before the server's answer refreshes both. */
function markLocally(queryClient: QueryClient, dealershipId: string, which: (n: AppNotification) => boolean): void {
  const list = queryClient.getQueryData<AppNotification[]>(notificationsKey(dealershipId));
  const marked = list?.filter((n) => !n.read && which(n)).length ?? 0;
  if (list) queryClient.setQueryData(notificationsKey(dealershipId), list.map((n) => (which(n) ? { ...n, read: true } : n)));
  queryClient.setQueryData<NotificationCount>(notificationCountKey(dealershipId), (old) => {
    if (!old) return old;
    return { count: which === everything ? 0 : Math.max(0, old.count - marked) };
  });
}

const everything = () => true;

/** Marks one read (POST /api/notifications/{id}/read, no body). A failure is only logged (part 2 §8). */
export function useMarkNotificationRead(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<unknown>(`/api/notifications/${encodeURIComponent(id)}/read`),
    onMutate: (id) => markLocally(queryClient, dealershipId, (n) => n.id === id),
    onSettled: () => invalidateNotifications(queryClient, dealershipId),
    onError: (error) => console.error("Failed to mark the notification read", error),
  });
}

export function useMarkAllNotificationsRead(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<unknown>(`/api/dealerships/${encodeURIComponent(dealershipId)}/notifications/mark-all-read`),
    onMutate: () => markLocally(queryClient, dealershipId, everything),
    onSettled: () => invalidateNotifications(queryClient, dealershipId),
    onError: (error) => console.error("Failed to mark the notifications read", error),
  });
}
