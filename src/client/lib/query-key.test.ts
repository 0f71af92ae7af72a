import { describe, expect, it } from "vitest";
import { isDealershipSpecificKey, pathFromQueryKey } from "./query-key";

describe("pathFromQueryKey", () => {
  it("joins the key's items into the path it reads", () => {
    expect(pathFromQueryKey(["/api/dealerships"])).toBe("/api/dealerships");
    expect(pathFromQueryKey(["/api/dealerships", "abc", "users", "u1", "role"])).toBe("/api/dealerships/abc/users/u1/role");
  });

  it("turns items beginning type= into the query string (part 1 §7)", () => {
    expect(pathFromQueryKey(["/api/dealerships", "abc", "leads", "type=new"])).toBe("/api/dealerships/abc/leads?type=new");
    expect(pathFromQueryKey(["/api/dealerships", "abc", "appointments", "type=today", "date=2026-01-05"])).toBe(
      "/api/dealerships/abc/appointments?type=today&date=2026-01-05",
    );
  });

  it("encodes path segments and parameter values but keeps the first item's slashes", () => {
    expect(pathFromQueryKey(["/api/invites/email", "a b@example.com"])).toBe("/api/invites/email/a%20b%40example.com");
    expect(pathFromQueryKey(["/api/x", "q=a&b"])).toBe("/api/x?q=a%26b");
  });

  it("skips empty items and numbers become segments", () => {
    expect(pathFromQueryKey(["/api/dealerships", "abc", undefined, "analytics", 30])).toBe("/api/dealerships/abc/analytics/30");
  });
});

describe("isDealershipSpecificKey", () => {
  it("keeps the person's own entries and the dealership list", () => {
    expect(isDealershipSpecificKey(["/api/user"])).toBe(false);
    expect(isDealershipSpecificKey(["/api/user/platform-admin-status"])).toBe(false);
    expect(isDealershipSpecificKey(["/api/dealerships"])).toBe(false);
    expect(isDealershipSpecificKey(["/api/platform/overview"])).toBe(false);
  });

  it("counts everything about one dealership or its objects as dealership-specific", () => {
    expect(isDealershipSpecificKey(["/api/dealerships", "abc", "leads", "type=new"])).toBe(true);
    expect(isDealershipSpecificKey(["/api/leads", "l1"])).toBe(true);
  });
});
