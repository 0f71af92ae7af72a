import { lazy, Suspense, useEffect, useState } from "react";
import { useFirstScreenDrawn } from "../lib/first-screen";
import { useToasts } from "../lib/toast";

// The toast area (radix Toast) is not part of the first screen: it downloads once the page is drawn, and a toast
// raised before that waits for it (issue 12, decision 070). The toast store itself (lib/toast.ts) is tiny and always there.

const loadToaster = () => import("./ui/toast");
const Toaster = lazy(() => loadToaster().then((m) => ({ default: m.Toaster })));

export function ToasterOnDemand() {
  const toasts = useToasts();
  const [wanted, setWanted] = useState(false);
  if (toasts.length > 0 && !wanted) setWanted(true);
  const drawn = useFirstScreenDrawn();
  useEffect(() => {
    // Once the first screen is drawn, so that a later toast (a failed sign-in) shows at once.
    if (drawn) void loadToaster();
  }, [drawn]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
