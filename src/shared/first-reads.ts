import { RECENT_LEADS_SHOWN } from "./constants";
import { SPEED_TO_LEAD_DASHBOARD_DAYS } from "./speed-to-lead";

// The API reads a page makes as soon as it draws, for a signed-in member in their current dealership (issue 12,
// decision 161). The server answers them into index.html with "who is this?" (decision 125), and the page takes
// them from there instead of asking: the dashboard draws once, with its data, without a round trip per card.
// Paths exactly as the client writes them (src/client/lib/query-key.ts); tests/e2e checks the dashboard asks none
// of them over the network, so a card that changes what it reads shows up there.

export function firstReads(pathname: string, member: { userId: string; dealershipId: string }): string[] {
  const dealership = `/api/dealerships/${encodeURIComponent(member.dealershipId)}`;
  if (pathname === "/" || pathname === "/dashboard") {
    return [
      `${dealership}/users/${encodeURIComponent(member.userId)}/role`,
      `${dealership}/leads?type=new`,
      `${dealership}/metrics`,
      `${dealership}/leads?limit=${RECENT_LEADS_SHOWN}`,
      `${dealership}/appointments?type=upcoming`,
      `${dealership}/agenda?scope=mine`,
      `${dealership}/speed-to-lead?days=${SPEED_TO_LEAD_DASHBOARD_DAYS}`,
    ];
  }
  return [];
}

/** One read's answer as the page receives it (only 200s are written in). */
export interface FirstRead {
  body: unknown;
  /** The Link header (a list's next page), when there is one. */
  link?: string;
}
