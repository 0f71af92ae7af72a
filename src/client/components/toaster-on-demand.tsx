import { lazy, Suspense, useEffect, useState } from "react";
import { onFirstInteraction } from "../lib/first-interaction";
import { useToasts } from "../lib/toast";

// The toast area (radix Toast) is not part of the first screen: it downloads at the first interaction, and a toast
// raised before that waits for it (issue 12, decision 070). The toast store itself (lib/toast.ts) is tiny and always there.

const loadToaster = () => import("./ui/toast");
const Toaster = lazy(() => loadToaster().then((m) => ({ default: m.Toaster })));

export function ToasterOnDemand() {
  const toasts = useToasts();
  const [wanted, setWanted] = useState(false);
  if (toasts.length > 0 && !wanted) setWanted(true);
  // Fetched at the first touch or key, so that the toast after a failed sign-in shows at once; a toast raised before
  // that (a lost session) mounts it too.
  useEffect(() => onFirstInteraction(() => void loadToaster()), []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
