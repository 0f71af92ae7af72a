import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

// axe-core in the page under test (WCAG 2.0-2.2 A/AA rules and axe's best practices), issue 12: a serious or
// critical finding fails the test. The source is evaluated over the DevTools protocol, which the app's CSP allows.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

interface AxeResults {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
}

/** Every serious or critical axe finding on what the page shows now. */
export async function seriousA11yFindings(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe !== "undefined");
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    () =>
      (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
        resultTypes: ["violations"],
      }) as Promise<AxeResults>,
  );
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact!, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

/** Fails with the findings listed (rule, what it asks, where) when axe finds anything serious or critical. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  // The page's data arrives first (as the sweeps wait, axe-sweep.ts): on a loaded machine axe otherwise read a page
  // mid-load (CI, 2026-11-28, three files at a time).
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page.locator("[aria-busy='true']").first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => undefined);
  // Animations settle first: a half-faded dialog would fail the contrast rule for no real reason.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const findings = await seriousA11yFindings(page);
  if (findings.length > 0) {
    const list = findings.map((f) => `  - ${f.impact} ${f.id}: ${f.help}\n      ${f.targets.join("\n      ")}`).join("\n");
    throw new Error(`axe finds ${findings.length} serious or critical problem(s) on ${where}:\n${list}`);
  }
}
