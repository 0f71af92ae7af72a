import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { refreshFor } from "../realtime/LiveUpdates";
import type { LiveMessage } from "../realtime/live-events";
import { activityKey } from "./timeline-api";

// An open lead page's timeline follows what colleagues do (issue 26): every lead message (a note or call is
// lead_activity) and every appointment or test-drive message makes it stale; the lead's own data is not asked again
// for an appointment.

describe("the timeline on the socket", () => {
  function staleAfter(type: LiveMessage["type"]): string[] {
    const client = new QueryClient();
    const keys = { timeline: activityKey("lead-1", "all"), notes: activityKey("lead-1", "notes"), lead: ["/api/leads", "lead-1"] };
    for (const key of Object.values(keys)) client.setQueryData([...key], { x: 1 });
    refreshFor(client, "dealer-1", { type, data: { leadId: "lead-1" } });
    return Object.entries(keys)
      .filter(([, key]) => client.getQueryState([...key])?.isInvalidated)
      .map(([name]) => name)
      .sort();
  }

  it("refreshes on a colleague's note or call, and on any lead change", () => {
    expect(staleAfter("lead_activity")).toEqual(["lead", "notes", "timeline"]);
    expect(staleAfter("lead_status_changed")).toEqual(["lead", "notes", "timeline"]);
  });

  it("refreshes the timelines, not the lead, on an appointment or a drive", () => {
    expect(staleAfter("appointment_created")).toEqual(["notes", "timeline"]);
    expect(staleAfter("test_drive_updated")).toEqual(["notes", "timeline"]);
  });

  it("leaves them alone for anything else", () => {
    expect(staleAfter("team_member_removed" as LiveMessage["type"])).toEqual([]);
  });
});
