import { lazy, Suspense } from "react";
import { useFirstScreenDrawn } from "../lib/first-screen";

// Mounts the signed-in tab's live parts (socket, shortcuts, tab hand-off, push) once the first screen is drawn, so
// they never weigh on it (decision 070).

const LiveShell = lazy(() => import("./LiveShell").then((m) => ({ default: m.LiveShell })));

export function LiveShellSlot() {
  const drawn = useFirstScreenDrawn();
  if (!drawn) return null;
  return (
    <Suspense fallback={null}>
      <LiveShell />
    </Suspense>
  );
}
