import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, type NavigateFunction } from "react-router";
import { invalidateAppointments } from "../appointments/api";
import { useAuth } from "../auth/auth-provider";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { invalidateLeads } from "../leads/api";
import { toast } from "../lib/toast";
import { invalidateNotifications } from "../notifications/api";
import { invalidateTestDriveData } from "../test-drives/api";
import { areaOf, HeldWhileHidden, isControlMessage, liveToast, mergedLeadRedirect, OWN_WRITE_ECHO_MS, parseLiveMessage, type LiveMessage } from "./live-events";
import { LiveSocket, socketUrl } from "./socket";

// Live updates on every open screen (part 2 §4): one socket per signed-in tab; each event refreshes what it changed
// (leads lists and metrics, appointments, test drives) plus the notifications and their count, and may show a toast.

/**
 * Refreshes what this event made stale in the current dealership. `gone`: leads merged away, whose pages are moving to
 * the kept lead and must not ask again for a lead that no longer exists (decision 157).
 */
export function refreshFor(queryClient: QueryClient, dealershipId: string, message: LiveMessage, gone: readonly string[] = []): void {
  const area = areaOf(message.type);
  if (area === "leads") {
    invalidateLeads(queryClient, dealershipId);
    // An open lead's page shows its status and claimer too.
    const skip = new Set(gone);
    if (message.type === "lead_merged" && message.data.mergedLeadId) skip.add(message.data.mergedLeadId);
    void queryClient.invalidateQueries({ queryKey: ["/api/leads"], predicate: (query) => !skip.has(String(query.queryKey[1])) });
  } else if (area === "appointments") {
    invalidateAppointments(queryClient, dealershipId);
  } else if (area === "testDrives") {
    invalidateTestDriveData(queryClient, dealershipId);
  }
  // An open lead's timeline tells its appointments and drives too (issue 26).
  if (area === "appointments" || area === "testDrives") {
    void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] === "/api/leads" && query.queryKey[2] === "activity" });
  }
  invalidateNotifications(queryClient, dealershipId);
}

/** A merge moves a tab on the merged-away lead's page to the kept lead, told why, whatever the toast silences. */
function followMerge(message: LiveMessage, where: { pathname: string; navigate: NavigateFunction }): boolean {
  const moved = mergedLeadRedirect(message, where.pathname);
  if (!moved) return false;
  void where.navigate(moved.to, { replace: true });
  toast(moved.toast);
  return true;
}

export function LiveUpdates() {
  const { user } = useAuth();
  const { dealership } = useCurrentDealership();
  const queryClient = useQueryClient();
  const socketRef = useRef<LiveSocket | null>(null);
  const dealershipRef = useRef<string | null>(null);
  const lastWriteRef = useRef(0);
  const userId = user?.id ?? null;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The socket's handler is made once; it reads where the tab is now, and navigates with the latest function.
  const whereRef = useRef({ pathname, navigate });
  useEffect(() => {
    whereRef.current = { pathname, navigate };
  }, [pathname, navigate]);
  const [held] = useState(() => new HeldWhileHidden(() => document.visibilityState === "hidden"));

  // Shown again: what happened meanwhile, refreshed once per kind of event (their toasts are stale by now).
  useEffect(() => {
    const onVisible = () => {
      const current = dealershipRef.current;
      if (document.visibilityState === "hidden" || !current) return;
      const messages = held.take();
      const gone = messages.flatMap((m) => (m.type === "lead_merged" && m.data.mergedLeadId ? [m.data.mergedLeadId] : []));
      for (const message of messages) followMerge(message, whereRef.current);
      for (const message of messages) refreshFor(queryClient, current, message, gone);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [queryClient, held]);

  // When this tab last finished saving something: the event that follows is its own echo (decision 116).
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === "updated" && event.mutation.state.status !== "pending") lastWriteRef.current = Date.now();
      }),
    [queryClient],
  );
  const dealershipId = dealership?.id ?? null;

  // The socket lives as long as someone is signed in here; switching dealership re-identifies it.
  useEffect(() => {
    if (!userId || !dealershipId) return;
    dealershipRef.current = dealershipId;
    if (socketRef.current) {
      socketRef.current.identify({ userId, dealershipId });
      return;
    }
    socketRef.current = new LiveSocket(socketUrl(window.location), { userId, dealershipId }, (text) => {
      let message: LiveMessage;
      try {
        message = parseLiveMessage(text);
      } catch (error) {
        console.error("Real-time message could not be read", error);
        return;
      }
      if (isControlMessage(message)) {
        if (message.type === "error") console.error("Real-time server refused a message", message.data);
        return;
      }
      const current = dealershipRef.current;
      if (!current) return;
      // A hidden tab asks the server nothing until someone looks at it (decision 156).
      if (!held.offer(message)) return;
      const moved = followMerge(message, whereRef.current);
      refreshFor(queryClient, current, message);
      const now = Date.now();
      const writingRecently = queryClient.isMutating() > 0 || now - lastWriteRef.current < OWN_WRITE_ECHO_MS;
      const shown = moved ? null : liveToast(message, { now, appLoadedAt: performance.timeOrigin, writingRecently });
      if (shown) toast(shown);
    });
  }, [userId, dealershipId, queryClient, held]);

  useEffect(
    () => () => {
      socketRef.current?.close();
      socketRef.current = null;
    },
    [],
  );
  return null;
}
