import { lazy, Suspense } from "react";
import { useFirstScreenDrawn } from "../lib/first-screen";
import { BellFace } from "./BellFace";

// The bell's place in the header. The popover, its data and the socket are not part of the first screen (decision 070):
// until they have downloaded the bell is drawn disabled, so nothing can be clicked into a void.

const NotificationBell = lazy(() => import("./NotificationBell").then((m) => ({ default: m.NotificationBell })));

export function BellSlot() {
  const drawn = useFirstScreenDrawn();
  const waiting = <BellFace count={0} disabled />;
  if (!drawn) return waiting;
  return (
    <Suspense fallback={waiting}>
      <NotificationBell />
    </Suspense>
  );
}
