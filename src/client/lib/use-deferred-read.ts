import { useDeferredValue } from "react";

/** What a card draws from a read (TanStack Query's result has these three). */
export interface DrawnRead<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
}

/**
 * A read whose answer is drawn in a deferred render (issue 32). TanStack Query hands answers to React as an external
 * store's change, which React draws in one blocking task: the dashboard's reads answer together (from the page itself,
 * decision 161), and drawing all its cards at once held the main thread for 180-860 ms at 4x CPU. Deferred, the card
 * keeps its skeleton in that task and React draws the answer in slices, yielding to the browser between them. Once an
 * answer is drawn, a newer one is drawn the same way; a card mounted with its answer already cached draws it at once.
 */
export function useDeferredRead<T>(read: DrawnRead<T>): DrawnRead<T> {
  const data = useDeferredValue(read.data);
  // The answer is there but not drawn yet: the card still shows what it showed while waiting.
  const waiting = data === undefined && read.data !== undefined;
  return { data, isPending: read.isPending || waiting, isError: read.isError && !waiting };
}
