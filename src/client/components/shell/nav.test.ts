import { describe, expect, it } from "vitest";
import { bottomBarItems, navItems, showsFloatingActions } from "./nav";

describe("the mobile bottom bar (part 1 §2.9)", () => {
  it("lists clients first, then Leads, Calendar and Test Drives, whatever the sidebar's order", () => {
    expect(bottomBarItems(navItems).map((i) => i.bottomBar)).toEqual(["Clients", "Leads", "Calendar", "Test Drives"]);
  });
});

describe("the floating buttons", () => {
  it("show on the dashboard, leads, calendar and test-drive paths only", () => {
    for (const path of ["/", "/dashboard", "/leads/new", "/leads/detail/abc", "/calendar", "/test-drives", "/book-test-drive"]) {
      expect(showsFloatingActions(path), path).toBe(true);
    }
    for (const path of ["/admin", "/appointments/new", "/profile", "/leadsx"]) {
      expect(showsFloatingActions(path), path).toBe(false);
    }
  });
});
