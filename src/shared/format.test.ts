import { describe, expect, it } from "vitest";
import { APPOINTMENT_TIME_SLOTS } from "./constants";
import { fullName, relativeTime } from "./format";
import { can } from "./permissions";

describe("relativeTime", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  it("reads like the spec: Just now, minutes, hours, days", () => {
    expect(relativeTime("2026-11-22T11:59:30Z", now)).toBe("Just now");
    expect(relativeTime("2026-11-22T11:59:00Z", now)).toBe("1 minute ago");
    expect(relativeTime("2026-11-22T11:15:00Z", now)).toBe("45 minutes ago");
    expect(relativeTime("2026-11-22T10:00:00Z", now)).toBe("2 hours ago");
    expect(relativeTime("2026-11-21T12:00:00Z", now)).toBe("1 day ago");
    expect(relativeTime("2026-11-19T12:00:00Z", now)).toBe("3 days ago");
  });

  it("says Unknown time for an invalid date and N/A when the field is absent", () => {
    expect(relativeTime("not a date", now)).toBe("Unknown time");
    expect(relativeTime(undefined, now)).toBe("N/A");
  });
});

describe("fullName", () => {
  it("joins what is there", () => {
    expect(fullName({ firstName: "Ana", lastName: "Lee" })).toBe("Ana Lee");
    expect(fullName({ firstName: "Ana", lastName: null })).toBe("Ana");
  });
});

describe("business constants", () => {
  it("offers 18 half-hour slots from 09:00 to 17:30", () => {
    expect(APPOINTMENT_TIME_SLOTS).toHaveLength(18);
    expect(APPOINTMENT_TIME_SLOTS[0]).toBe("09:00");
    expect(APPOINTMENT_TIME_SLOTS[1]).toBe("09:30");
    expect(APPOINTMENT_TIME_SLOTS.at(-1)).toBe("17:30");
  });
});

describe("can (part 1 §6)", () => {
  it("lets front desk and management assign leads and send reminders, not sales", () => {
    expect(can("sales", "assignLeads")).toBe(false);
    expect(can("frontDesk", "assignLeads")).toBe(true);
    expect(can("management", "sendReminders")).toBe(true);
    expect(can("sales", "sendReminders")).toBe(false);
  });

  it("keeps management access and user management to management", () => {
    expect(can("management", "manageUsers")).toBe(true);
    expect(can("frontDesk", "manageUsers")).toBe(false);
    expect(can("frontDesk", "managementAccess")).toBe(false);
  });

  it("gives reports to sales and management but not front desk, and nothing to nobody", () => {
    expect(can("sales", "viewReports")).toBe(true);
    expect(can("frontDesk", "viewReports")).toBe(false);
    expect(can(null, "accessNewLeads")).toBe(false);
  });
});
