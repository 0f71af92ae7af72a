// Query keys are path arrays (part 1 §7): ["/api/dealerships", id, "leads", "type=new"] reads
// /api/dealerships/{id}/leads?type=new. Items of the form name=value (type=new, days=30) become the query string;
// every other item is a path segment.

export type QueryKey = readonly unknown[];

const PARAM = /^[A-Za-z][\w-]*=/;

export function pathFromQueryKey(key: QueryKey): string {
  const segments: string[] = [];
  const params: string[] = [];
  for (const item of key) {
    if (item === undefined || item === null || item === "") continue;
    const text = String(item);
    if (PARAM.test(text)) {
      const eq = text.indexOf("=");
      params.push(`${text.slice(0, eq)}=${encodeURIComponent(text.slice(eq + 1))}`);
    } else if (segments.length === 0) {
      segments.push(text.replace(/\/+$/, ""));
    } else {
      segments.push(text.split("/").map(encodeURIComponent).join("/"));
    }
  }
  const path = segments.join("/");
  return params.length ? `${path}?${params.join("&")}` : path;
}

/** Entries that belong to the signed-in person rather than to one dealership; everything else is dealership data. */
const PERSONAL_KEYS = new Set(["/api/user", "/api/user/platform-admin-status"]);

/**
 * True for cache entries that depend on the current dealership: everything except the user, the platform-admin
 * status and the user's dealership list (and the platform screens, which span all dealerships).
 */
export function isDealershipSpecificKey(key: QueryKey): boolean {
  const [first] = key;
  if (typeof first !== "string") return true;
  if (PERSONAL_KEYS.has(first) && key.length === 1) return false;
  if (first === "/api/dealerships" && key.length === 1) return false;
  if (first.startsWith("/api/platform")) return false;
  return true;
}
