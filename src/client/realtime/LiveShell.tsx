import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { useAuth } from "../auth/auth-provider";
import { subscribeToPush } from "../notifications/push";
import { KeyboardShortcuts } from "../shortcuts/KeyboardShortcuts";
import { LiveUpdates } from "./LiveUpdates";
import { listenForHandoffs } from "./tab-handoff";

// What a signed-in tab runs besides its page, downloaded after the first screen (LiveShellSlot): the real-time socket,
// the keyboard shortcuts, the answer to e-mail links opened in another tab, and a silent push subscription when
// this browser already allows notifications.

function TabHandoffListener() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = useRef(pathname);
  useEffect(() => {
    current.current = pathname;
  }, [pathname]);
  useEffect(() => listenForHandoffs(() => current.current, (path) => navigate(path)), [navigate]);
  return null;
}

function SilentPushSubscription() {
  const { user } = useAuth();
  const userId = user?.id;
  useEffect(() => {
    if (userId) void subscribeToPush();
  }, [userId]);
  return null;
}

export function LiveShell() {
  return (
    <>
      <LiveUpdates />
      <KeyboardShortcuts />
      <TabHandoffListener />
      <SilentPushSubscription />
    </>
  );
}
