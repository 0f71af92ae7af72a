import { BellOff, BellRing, CheckCheck } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { safeAppPath } from "../auth/sign-in-first";
import { Button } from "../components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "../components/ui/popover";
import { Spinner } from "../components/ui/spinner";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { cn } from "../lib/utils";
import { NOTIFICATIONS_SHOWN } from "../realtime/constants";
import { useMarkAllNotificationsRead, useMarkNotificationRead, useNotificationCount, useNotifications, type AppNotification } from "./api";
import { BellFace } from "./BellFace";
import { notificationAge, unreadSummary } from "./format";
import { enablePush, pushState, type PushState } from "./push";

// The header bell (part 2 §2 Notifications): a popover 'Notifications' with the unread count, at most 10 items in a
// fixed-height list, 'Mark all as read', and the empty state. Clicking an item marks it read (if unread) and opens
// its page. Downloaded after the first screen (BellSlot).

/** A notification's url as a path of this app, or null (another site's address is never followed). */
export function notificationPath(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, window.location.origin);
    if (parsed.origin !== window.location.origin) return null;
    return safeAppPath(parsed.pathname + parsed.search + parsed.hash);
  } catch {
    return null;
  }
}

function NotificationItem({ notification, onOpen }: { notification: AppNotification; onOpen: (n: AppNotification) => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(notification)}
        data-testid="notification-item"
        data-read={notification.read ? "true" : "false"}
        className={cn(
          "flex w-full gap-3 px-4 py-3 text-left outline-none transition hover:bg-muted focus-visible:bg-muted focus-visible:ring-[3px] focus-visible:ring-inset focus-visible:ring-ring/30",
          !notification.read && "bg-primary/5",
        )}
      >
        <span aria-hidden="true" className={cn("mt-1.5 size-2 shrink-0 rounded-full", notification.read ? "bg-transparent" : "bg-primary")} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline justify-between gap-2">
            <span className={cn("truncate text-sm", notification.read ? "font-medium" : "font-semibold")}>{notification.title}</span>
            <span className="shrink-0 text-xs text-muted-foreground">{notificationAge(notification.createdAt)}</span>
          </span>
          <span className="mt-0.5 line-clamp-2 block text-[13px] text-muted-foreground">{notification.message}</span>
          {!notification.read && <span className="sr-only">(unread)</span>}
        </span>
      </button>
    </li>
  );
}

function EmptyState() {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-2 px-6 text-center">
      <BellOff className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="text-sm font-semibold">No notifications yet</p>
      <p className="text-[13px] text-muted-foreground">You&apos;re all caught up! Notifications will appear here.</p>
    </div>
  );
}

function EnablePush() {
  const [state, setState] = useState<PushState>(pushState);
  const [asking, setAsking] = useState(false);
  if (state !== "default") return null;
  return (
    <div className="border-b bg-muted/50 px-4 py-2.5">
      <Button
        variant="outline"
        size="sm"
        className="w-full"
        disabled={asking}
        onClick={() => {
          setAsking(true);
          void enablePush().then((next) => {
            setState(next);
            setAsking(false);
          });
        }}
      >
        <BellRing aria-hidden="true" />
        Enable notifications
      </Button>
    </div>
  );
}

export function NotificationBell() {
  const { dealership } = useCurrentDealership();
  const dealershipId = dealership?.id ?? "";
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const count = useNotificationCount(dealership?.id).data?.count ?? 0;
  const list = useNotifications(dealership?.id, open);
  const markRead = useMarkNotificationRead(dealershipId);
  const markAll = useMarkAllNotificationsRead(dealershipId);
  const shown = (list.data ?? []).slice(0, NOTIFICATIONS_SHOWN);

  function openNotification(notification: AppNotification) {
    if (!notification.read) markRead.mutate(notification.id);
    const path = notificationPath(notification.url);
    if (!path) return;
    setOpen(false);
    navigate(path);
  }

  if (!dealership) return null;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <BellFace count={count} />
      </PopoverTrigger>
      <PopoverContent align="end" className="w-[min(24rem,calc(100vw-1.5rem))] p-0" aria-labelledby="notifications-title">
        <div className="flex items-start justify-between gap-3 border-b px-4 py-3">
          <div className="min-w-0">
            <h2 id="notifications-title" className="text-base font-semibold leading-tight">
              Notifications
            </h2>
            <p className="text-[13px] text-muted-foreground" aria-live="polite">
              {unreadSummary(count)}
            </p>
          </div>
          <Button variant="ghost" size="sm" disabled={count === 0 || markAll.isPending} onClick={() => markAll.mutate()}>
            <CheckCheck aria-hidden="true" />
            Mark all as read
          </Button>
        </div>
        <EnablePush />
        <div className="h-80 overflow-y-auto" data-testid="notification-list">
          {list.isPending ? (
            <div role="status" className="flex h-full items-center justify-center text-muted-foreground">
              <Spinner className="size-5 text-primary" />
              <span className="sr-only">Loading notifications...</span>
            </div>
          ) : shown.length === 0 ? (
            <EmptyState />
          ) : (
            <ul className="divide-y" aria-label="Latest notifications">
              {shown.map((n) => (
                <NotificationItem key={n.id} notification={n} onOpen={openNotification} />
              ))}
            </ul>
          )}
        </div>
      </PopoverContent>
    </Popover>
  );
}
