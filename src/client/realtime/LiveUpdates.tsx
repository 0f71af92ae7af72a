import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { invalidateAppointments } from "../appointments/api";
import { useAuth } from "../auth/auth-provider";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { invalidateLeads } from "../leads/api";
import { toast } from "../lib/toast";
import { invalidateNotifications } from "../notifications/api";
import { invalidateTestDriveData } from "../test-drives/api";
import { areaOf, isControlMessage, liveToast, mergedLeadRedirect, OWN_WRITE_ECHO_MS, parseLiveMessage, type LiveMessage } from "./live-events";
import { LiveSocket, socketUrl } from "./socket";

// Live updates on every open screen (part 2 §4): one socket per signed-in tab; each event refreshes what it changed
// (leads lists and metrics, appointments, test drives) plus the notifications and their count, and may show a toast.

/** Refreshes what this event made stale in the current dealership. */
export function refreshFor(queryClient: QueryClient, dealershipId: string, message: LiveMessage): void {
  const area = areaOf(message.type);
  if (area === "leads") {
    invalidateLeads(queryClient, dealershipId);
    // An open lead's page shows its status and claimer too. A merged-away lead is gone (decision 157): its page moves
    // to the kept lead rather than asking again for a lead that no longer exists.
    const gone = message.type === "lead_merged" ? message.data.mergedLeadId : undefined;
    void queryClient.invalidateQueries({ queryKey: ["/api/leads"], predicate: (query) => !gone || query.queryKey[1] !== gone });
  } else if (area === "appointments") {
    invalidateAppointments(queryClient, dealershipId);
  } else if (area === "testDrives") {
    invalidateTestDriveData(queryClient, dealershipId);
  }
  invalidateNotifications(queryClient, dealershipId);
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
      // Someone on the merged-away lead's page lands on the kept lead, told why, whatever the toast silences.
      const moved = mergedLeadRedirect(message, whereRef.current.pathname);
      if (moved) {
        void whereRef.current.navigate(moved.to, { replace: true });
        toast(moved.toast);
      }
      refreshFor(queryClient, current, message);
      const now = Date.now();
      const writingRecently = queryClient.isMutating() > 0 || now - lastWriteRef.current < OWN_WRITE_ECHO_MS;
      const shown = moved ? null : liveToast(message, { now, appLoadedAt: performance.timeOrigin, writingRecently });
      if (shown) toast(shown);
    });
  }, [userId, dealershipId, queryClient]);

  useEffect(
    () => () => {
      socketRef.current?.close();
      socketRef.current = null;
    },
    [],
  );
  return null;
}
