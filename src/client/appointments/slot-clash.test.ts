import { describe, expect, it } from "vitest";
import type { AgendaItem } from "../../shared/schemas/responses/tasks";
import { clashes, clashText } from "./slot-clash";

// The booking forms' double-booking warning (issue 27, decision 230): which of the rep's bookings on the day's agenda
// a new booking overlaps. Toronto is UTC-5 in December: 10:00 there is 15:00Z.

const TZ = "America/Toronto";
const DAY = "2026-12-03";
const ME = "00000000-0000-4000-8000-000000000001";
const COLLEAGUE = "00000000-0000-4000-8000-000000000002";

function item(over: Partial<AgendaItem> & Pick<AgendaItem, "type" | "at">): AgendaItem {
  return {
    id: `00000000-0000-4000-8000-${String(Math.floor(Math.random() * 1e12)).padStart(12, "0")}`,
    leadId: null,
    title: "Trade-in appraisal",
    name: "Guadalupe Wojciechowski-Hernández",
    status: "scheduled",
    assignee: { id: ME, name: "Sam Sales" },
    taskType: null,
    note: null,
    duration: over.type === "appointment" ? 60 : null,
    overdue: false,
    ...over,
  };
}

const at = (time: string, date = DAY) => new Date(`${date}T${time}:00-05:00`).toISOString();
const clash = (items: AgendaItem[], time: string, minutes = 60) => clashes(items, ME, TZ, { date: DAY, time, minutes }).map((i) => i.title);

describe("a booking into a slot the rep already holds", () => {
  const appointment = item({ type: "appointment", at: at("10:00"), title: "Walkaround" });

  it("overlaps an appointment for its whole duration, not only at its start", () => {
    expect(clash([appointment], "10:00")).toEqual(["Walkaround"]);
    expect(clash([appointment], "10:30", 30)).toEqual(["Walkaround"]);
    expect(clash([appointment], "09:30", 60)).toEqual(["Walkaround"]);
    // Back to back is no clash.
    expect(clash([appointment], "11:00")).toEqual([]);
    expect(clash([appointment], "09:00", 60)).toEqual([]);
    // A 90-minute appointment holds 11:00 too.
    expect(clash([{ ...appointment, duration: 90 }], "11:00", 30)).toEqual(["Walkaround"]);
  });

  it("counts a booked test drive as holding its 30-minute slot", () => {
    const drive = item({ type: "test_drive", at: at("14:00"), title: "2025 Toyota RAV4 Hybrid XSE" });
    expect(clash([drive], "14:00", 30)).toEqual(["2025 Toyota RAV4 Hybrid XSE"]);
    expect(clash([drive], "13:30", 60)).toEqual(["2025 Toyota RAV4 Hybrid XSE"]);
    expect(clash([drive], "14:30", 30)).toEqual([]);
    expect(clash([{ ...drive, status: "out" }], "14:00", 30)).toHaveLength(1);
  });

  it("leaves out tasks, colleagues' bookings, cancelled, missed and finished ones, and other days", () => {
    const items = [
      item({ type: "task", at: at("10:00"), title: "Call" }),
      item({ type: "appointment", at: at("10:00"), assignee: { id: COLLEAGUE, name: "Riley Chen" } }),
      item({ type: "appointment", at: at("10:00"), status: "cancelled" }),
      item({ type: "appointment", at: at("10:00"), status: "no-show" }),
      item({ type: "test_drive", at: at("10:00"), status: "no_show" }),
      item({ type: "test_drive", at: at("10:00"), status: "completed" }),
      item({ type: "appointment", at: at("10:00", "2026-12-04") }),
      item({ type: "appointment", at: at("10:00"), assignee: null }),
    ];
    expect(clash(items, "10:00")).toEqual([]);
  });

  it("places the bookings on the dealership's clock, whatever zone the browser is in", () => {
    // 10:00 in Toronto is 07:00 in Los Angeles: the same instant is no clash at 10:00 on a Los Angeles dealership's form.
    expect(clashes([appointment], ME, "America/Los_Angeles", { date: DAY, time: "10:00", minutes: 60 })).toEqual([]);
    expect(clashes([appointment], ME, "America/Los_Angeles", { date: DAY, time: "07:00", minutes: 30 })).toHaveLength(1);
  });

  it("says whose booking it is, when and what, and that the slot can still be booked", () => {
    expect(clashText([], TZ)).toBeNull();
    expect(clashText([appointment], TZ)).toBe("You already have Guadalupe Wojciechowski-Hernández's appointment at 10:00 AM (Walkaround) in this slot. You can still book it.");
    const drive = item({ type: "test_drive", at: at("10:30"), name: "Oluwaseun Adeyemi", title: "2024 Ford F-150 Lariat" });
    const third = item({ type: "appointment", at: at("10:30"), name: "Nguyễn Thị Minh Khai" });
    expect(clashText([appointment, drive, third], TZ)).toBe(
      "You already have Guadalupe Wojciechowski-Hernández's appointment at 10:00 AM (Walkaround) and Oluwaseun Adeyemi's test drive at 10:30 AM (2024 Ford F-150 Lariat) and 1 more in this slot. You can still book it.",
    );
  });
});
