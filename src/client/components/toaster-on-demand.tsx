import { lazy, Suspense, useEffect, useState } from "react";
import { useToasts } from "../lib/toast";

// The toast area (radix Toast) is not part of the first screen: it downloads once the page is drawn, and a toast
// raised before that waits for it (issue 12). The toast store itself (lib/toast.ts) is tiny and always there.

const loadToaster = () => import("./ui/toast");
const Toaster = lazy(() => loadToaster().then((m) => ({ default: m.Toaster })));

export function ToasterOnDemand() {
  const toasts = useToasts();
  const [wanted, setWanted] = useState(false);
  if (toasts.length > 0 && !wanted) setWanted(true);
  useEffect(() => {
    // After the first paint, so that the first toast (a failed sign-in) shows at once.
    const timer = setTimeout(() => {
      void loadToaster();
    }, 0);
    return () => clearTimeout(timer);
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
