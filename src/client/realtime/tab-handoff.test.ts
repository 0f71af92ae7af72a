import { afterEach, describe, expect, it } from "vitest";
import { redirectTarget } from "../pages/EmailRedirectPage";
import { isIosSafari } from "./service-worker";
import { canHandleLinks, handToOpenTab, listenForHandoffs } from "./tab-handoff";

// The e-mail link hand-off (part 2 §2 Email-redirect screen) over a real BroadcastChannel (Node has one).

const stops: Array<() => void> = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));
/** Lets the channel's messages arrive (they are delivered asynchronously, later on a loaded machine). */
const settle = () => new Promise((r) => setTimeout(r, 150));

describe("handing an e-mail link to an open tab", () => {
  it("a tab on a working page takes it and opens the path; the asker hears it was handed", async () => {
    const opened: string[] = [];
    stops.push(listenForHandoffs(() => "/leads/new", (path) => opened.push(path)));
    expect(await handToOpenTab("/calendar", 500)).toBe(true);
    await settle();
    expect(opened).toEqual(["/calendar"]);
  });

  it("only one of several open tabs opens it", async () => {
    const opened: string[] = [];
    stops.push(listenForHandoffs(() => "/leads/new", (path) => opened.push(`a ${path}`)));
    stops.push(listenForHandoffs(() => "/calendar", (path) => opened.push(`b ${path}`)));
    expect(await handToOpenTab("/leads/my", 500)).toBe(true);
    await settle();
    expect(opened).toHaveLength(1);
  });

  it("tabs on /, /auth or /email-redirect do not answer: the link opens in its own tab", async () => {
    for (const p of ["/", "/auth", "/email-redirect"]) stops.push(listenForHandoffs(() => p, () => undefined));
    const started = Date.now();
    expect(await handToOpenTab("/calendar", 150)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(120);
    expect(canHandleLinks("/leads/detail/1")).toBe(true);
  });

  it("a tab never opens another site's address, whatever the message says", async () => {
    const opened: string[] = [];
    stops.push(listenForHandoffs(() => "/leads/new", (path) => opened.push(path)));
    expect(await handToOpenTab("//evil.example", 150)).toBe(false);
    expect(opened).toEqual([]);
  });
});

describe("the e-mail link's target", () => {
  it("is the 'to' path of this app, / when missing", () => {
    expect(redirectTarget("?to=/calendar")).toBe("/calendar");
    expect(redirectTarget("?to=%2Fleads%2Fdetail%2Fabc%3Ftab%3D1")).toBe("/leads/detail/abc?tab=1");
    expect(redirectTarget("")).toBe("/");
  });

  it("is / for anything that would leave the app or loop (an open redirect is a phishing tool)", () => {
    for (const to of ["//evil.com", "https://evil.com/x", "javascript:alert(1)", "/\\evil.com", "evil.com", "/email-redirect?to=/x"]) {
      expect(redirectTarget(`?to=${encodeURIComponent(to)}`), to).toBe("/");
    }
  });

  it("is / for a path the browser reads as another site (a tab or newline dropped, '..', a backslash), as it navigates", () => {
    for (const to of ["/\t/evil.com", "/\n/evil.com", "/\r\n/evil.com", "/\t\\evil.com", "/..//evil.com", "/.//evil.com", "/./email-redirect?to=/x"]) {
      expect(redirectTarget(`?to=${encodeURIComponent(to)}`), JSON.stringify(to)).toBe("/");
    }
    // Still a path of this app: kept as the browser will navigate to it.
    expect(redirectTarget(`?to=${encodeURIComponent("/leads/../calendar")}`)).toBe("/calendar");
  });
});

describe("iOS Safari, whose workers are removed", () => {
  it("is told from the user agent, an iPad included, but not Chrome or Firefox on iOS", () => {
    const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
    const ipad = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
    expect(isIosSafari(iphone, "iPhone", 5)).toBe(true);
    expect(isIosSafari(ipad, "MacIntel", 5)).toBe(true);
    expect(isIosSafari(ipad, "MacIntel", 0)).toBe(false);
    expect(isIosSafari(iphone.replace("Version/17.0", "CriOS/120.0"), "iPhone", 5)).toBe(false);
    expect(isIosSafari("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36", "Linux x86_64", 0)).toBe(false);
  });
});
