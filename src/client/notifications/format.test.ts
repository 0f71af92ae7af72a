import { describe, expect, it } from "vitest";
import { badgeText, bellLabel, notificationAge, unreadSummary } from "./format";

// The bell's words and numbers (part 2 §2 Notifications).
describe("a notification's age", () => {
  const now = Date.parse("2026-11-24T15:00:00Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it("is 'Just now' for anything under an hour", () => {
    expect(notificationAge(ago(0), now)).toBe("Just now");
    expect(notificationAge(ago(59 * 60_000), now)).toBe("Just now");
  });

  it("counts whole hours under a day, rounding down", () => {
    expect(notificationAge(ago(60 * 60_000), now)).toBe("1h ago");
    expect(notificationAge(ago(5.9 * 3_600_000), now)).toBe("5h ago");
    expect(notificationAge(ago(23.99 * 3_600_000), now)).toBe("23h ago");
  });

  it("counts whole days from 24 hours", () => {
    expect(notificationAge(ago(24 * 3_600_000), now)).toBe("1d ago");
    expect(notificationAge(ago(71 * 3_600_000), now)).toBe("2d ago");
  });

  it("says 'Just now' for a time in the future or one it cannot read, rather than a negative age", () => {
    expect(notificationAge(ago(-3_600_000), now)).toBe("Just now");
    expect(notificationAge("not a date", now)).toBe("Just now");
  });
});

describe("the badge", () => {
  it("shows nothing at zero, the number up to 99 and 99+ above", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(1)).toBe("1");
    expect(badgeText(99)).toBe("99");
    expect(badgeText(100)).toBe("99+");
    expect(badgeText(4321)).toBe("99+");
  });

  it("gives the bell a name with the unread count that contains what the badge shows", () => {
    expect(bellLabel(0)).toBe("Notifications, none unread");
    expect(bellLabel(3)).toBe("Notifications, 3 unread");
    expect(bellLabel(150)).toBe("Notifications, 99+ unread");
  });

  it("writes the popover's summary in singular or plural", () => {
    expect(unreadSummary(0)).toBe("0 unread notifications");
    expect(unreadSummary(1)).toBe("1 unread notification");
    expect(unreadSummary(12)).toBe("12 unread notifications");
  });
});
