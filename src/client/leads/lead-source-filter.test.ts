import { describe, expect, it } from "vitest";
import { pathFromQueryKey } from "../lib/query-key";
import { leadListKey } from "./api";
import { sourceFromParam } from "./LeadSourceFilter";

// The lists' Source filter (issue 14; decision 151): what the address may say, and what the list then asks the API.

describe("the Source filter of the leads lists", () => {
  it("reads a known source from the address and ignores anything else", () => {
    expect(sourceFromParam("adf")).toBe("adf");
    expect(sourceFromParam("walk-in")).toBe("walk-in");
    for (const other of [null, "", "ADF", "fax", "adf ", "constructor", "__proto__"]) expect(sourceFromParam(other)).toBe("");
  });

  it("asks the API for ?source= beside the type, search and status, and leaves it out for all sources", () => {
    expect(pathFromQueryKey(leadListKey("d1", "new", { source: "adf" }))).toBe("/api/dealerships/d1/leads?type=new&source=adf");
    expect(pathFromQueryKey(leadListKey("d1", "my", { q: "ann lee", status: "closed", source: "walk-in" }))).toBe(
      "/api/dealerships/d1/leads?type=my&q=ann%20lee&status=closed&source=walk-in",
    );
    expect(pathFromQueryKey(leadListKey("d1", "new", { source: "" }))).toBe("/api/dealerships/d1/leads?type=new");
  });

  it("gives each source its own list (its own cache entry and first page)", () => {
    expect(leadListKey("d1", "new", { source: "adf" })).not.toEqual(leadListKey("d1", "new", { source: "phone" }));
    expect(leadListKey("d1", "new", { source: "adf" }).slice(0, 3)).toEqual(["/api/dealerships", "d1", "leads"]);
  });
});
