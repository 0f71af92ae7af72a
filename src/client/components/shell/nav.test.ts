import { describe, expect, it } from "vitest";
import { bottomBarItems, navItems, orderedFor, pageOpensAfterSwitch, showsFloatingActions } from "./nav";

describe("the mobile bottom bar (part 1 §2.9)", () => {
  it("lists clients first, then Leads, Calendar and Test Drives, whatever the sidebar's order", () => {
    expect(bottomBarItems(navItems).map((i) => i.bottomBar)).toEqual(["Clients", "Leads", "Calendar", "Test Drives"]);
  });
});

describe("the sidebar's order (issue 27)", () => {
  it("puts My Day first for sales, and leaves the Dashboard first for everyone else", () => {
    expect(orderedFor(navItems, "sales").map((i) => i.path).slice(0, 2)).toEqual(["/my-day", "/"]);
    expect(orderedFor(navItems, "management").map((i) => i.path).slice(0, 2)).toEqual(["/", "/my-day"]);
    expect(orderedFor(navItems, null)[0]!.path).toBe("/");
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

describe("which page stays open after a dealership switch (issue 12)", () => {
  it("keeps a page the new role may open", () => {
    expect(pageOpensAfterSwitch("/calendar", "sales")).toBe(true);
    expect(pageOpensAfterSwitch("/admin", "management")).toBe(true);
    expect(pageOpensAfterSwitch("/test-drives/book", "sales")).toBe(true);
  });

  it("leaves a page the new role may not open", () => {
    expect(pageOpensAfterSwitch("/admin", "sales")).toBe(false);
    expect(pageOpensAfterSwitch("/sales-analytics", "frontDesk")).toBe(false);
  });

  it("leaves a record of the dealership left behind", () => {
    expect(pageOpensAfterSwitch("/leads/detail/abc", "management")).toBe(false);
    expect(pageOpensAfterSwitch("/test-drives/xyz", "management")).toBe(false);
  });
});
