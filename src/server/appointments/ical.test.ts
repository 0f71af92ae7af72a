import ical, { type VEvent } from "node-ical";
import { describe, expect, it } from "vitest";
import { appointmentsCalendar, escapeText, foldLine } from "./ical";
import type { AppointmentWithUser } from "./queries";

// The iCalendar writer on its own: folding, escaping and speed, read back by node-ical.

const context = { dealership: { name: "Northside Motors", address: "1200 Yonge St, Toronto, ON", timezone: "America/Toronto" }, label: "My appointments", appUrl: "https://showroom.example.com", refreshSeconds: 900 };

function row(i: number, extra: Partial<AppointmentWithUser> = {}): AppointmentWithUser {
  return {
    id: `appt${i}`,
    title: "Test drive",
    leadId: null,
    firstName: "Élodie",
    lastName: `Tremblay-${i}`,
    email: "elodie@example.com",
    phone: "416-555-0101",
    description: null,
    date: "2027-03-14", // the day clocks go forward in Toronto
    time: "09:30",
    duration: 60,
    status: "scheduled",
    arrivedAt: null,
    completedAt: null,
    actualDuration: null,
    createdBy: "u",
    assignedTo: "u",
    dealershipId: "d",
    notificationSent: false,
    createdAt: new Date("2026-11-20T12:00:00Z"),
    assignedToUser: { firstName: "Sam", lastName: "Sales" },
    ...extra,
  };
}

const octets = (s: string) => Buffer.byteLength(s, "utf8");

describe("line folding (RFC 5545 §3.1)", () => {
  it("keeps short ASCII lines as they are", () => {
    expect(foldLine("SUMMARY:Test drive")).toBe("SUMMARY:Test drive");
  });

  it("folds long lines to at most 75 octets, continuation lines starting with a space, never inside a character", () => {
    const line = `DESCRIPTION:${"Véhicule d'occasion 🚗 — ".repeat(12)}`;
    const folded = foldLine(line);
    const physical = folded.split("\r\n");
    expect(physical.length).toBeGreaterThan(4);
    for (const [i, p] of physical.entries()) {
      expect(octets(p)).toBeLessThanOrEqual(75);
      if (i > 0) expect(p.startsWith(" ")).toBe(true);
    }
    expect(physical.map((p, i) => (i === 0 ? p : p.slice(1))).join("")).toBe(line);
  });
});

describe("text escaping", () => {
  it("escapes backslash, semicolon, comma and line breaks", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
  });

  it("round-trips through a real parser", () => {
    const description = "Trade-in: 2017 Civic; 140,000 km\nBring keys, title & \\ papers — ça va 🚗";
    const [event] = Object.values(ical.sync.parseICS(appointmentsCalendar(context, [row(1, { description, title: "Appraisal, quick; please" })]))).filter(
      (c): c is VEvent => c?.type === "VEVENT",
    );
    expect(String(event!.summary)).toBe("Appraisal, quick; please – Élodie Tremblay-1");
    expect(String(event!.description).endsWith(description)).toBe(true);
  });
});

describe("times", () => {
  it("writes wall-clock times in the dealership's zone, correct across the DST change", () => {
    const text = appointmentsCalendar(context, [row(1), row(2, { date: "2027-03-13", time: "17:30", duration: 90 })]);
    expect(text).toContain("DTSTART;TZID=America/Toronto:20270314T093000\r\nDTEND;TZID=America/Toronto:20270314T103000");
    const events = Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === "VEVENT");
    const after = events.find((e) => e.uid === "appt1@showroom")!;
    const before = events.find((e) => e.uid === "appt2@showroom")!;
    expect(after.start.toISOString()).toBe("2027-03-14T13:30:00.000Z"); // EDT, UTC-4
    expect(before.start.toISOString()).toBe("2027-03-13T22:30:00.000Z"); // EST, UTC-5
    expect(before.end?.toISOString()).toBe("2027-03-14T00:00:00.000Z"); // 19:00 EST
  });
});

describe("speed", () => {
  // About 0.1 s here when the machine is quiet; ical-generator took 4.4 s. The bound leaves room for a busy CI box.
  it("writes 5,000 events without blocking the server for seconds", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => row(i, { description: "Interested in the RAV4 Hybrid XLE; bring trade-in details, insurance and licence." }));
    const started = performance.now();
    const text = appointmentsCalendar(context, rows);
    const ms = performance.now() - started;
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(5000);
    expect(ms).toBeLessThan(2500);
  });
});
