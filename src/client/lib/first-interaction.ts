// Code that only matters once someone acts (a form's checks, the toast area) loads at their first touch, key or
// focus, not while the first screen is still being measured and drawn (issue 12). Answers a function that cancels.

const EVENTS = ["pointerdown", "keydown", "focusin"] as const;

export function onFirstInteraction(run: () => void): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancel();
    run();
  };
  const cancel = () => EVENTS.forEach((event) => window.removeEventListener(event, once, true));
  EVENTS.forEach((event) => window.addEventListener(event, once, { capture: true, passive: true }));
  return cancel;
}
