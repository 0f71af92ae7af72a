// A deploy replaces the build: a tab still running the previous one asks for page chunks under names the server no
// longer has, and the import fails ("Failed to fetch dynamically imported module"). Without this the page stayed
// blank (issue 31). Such a tab reloads once, which fetches the new build's index.html and chunks; a second failure
// within a minute is a real one and is left to show.

const KEY = "showroom.reloadedForNewBuild";
const ONCE_WITHIN_MS = 60_000;

/** The messages browsers give a dynamic import or a module preload that could not be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

/** Reloads the page, unless it was reloaded for this within the last minute: answers whether it did. */
export function reloadForNewBuild(storage: Pick<Storage, "getItem" | "setItem"> = sessionStorage, reload = () => window.location.reload(), now = Date.now()): boolean {
  const last = Number(storage.getItem(KEY) ?? 0);
  if (now - last < ONCE_WITHIN_MS) return false;
  storage.setItem(KEY, String(now));
  reload();
  return true;
}

/** For React.lazy: a chunk-load failure reloads once and waits (the spinner stays up) instead of failing the page. */
export function reloadOnChunkError(error: unknown): Promise<never> {
  if (isChunkLoadError(error) && reloadForNewBuild()) return new Promise<never>(() => undefined);
  return Promise.reject(error instanceof Error ? error : new Error(String(error)));
}
