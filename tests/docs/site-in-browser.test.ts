/**
 * Builds the docs site into a temporary folder, serves it on 127.0.0.1 and opens it in Debian's
 * chromium: every operation of the description is on the reference page with its code samples, a
 * guide and the price tables render, and no page logs an error or requests anything outside
 * 127.0.0.1. Saves a screenshot of the reference page to test-results/docs-reference.png.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_LABELS } from "../../docs-src/code-samples.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { PROJECT_ROOT } from "../../docs-src/site.ts";
import { loadBundle, operations } from "../../model/document.ts";
import { launchChromium, openRecorded, staysLocal, type RecordedPage } from "./browser-session.ts";
import { buildAndServe, type BuiltSite } from "./built-site.ts";

const doc = loadBundle();
const SCREENSHOT = join(PROJECT_ROOT, "test-results", "docs-reference.png");

let site: BuiltSite;
let browser: Browser;

beforeAll(async () => {
  site = await buildAndServe(doc);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.remove();
});

/** Opens a page of the site, runs the checks, then asserts it stayed offline and error-free. */
async function onPage(file: string, check: (recorded: RecordedPage) => Promise<void>): Promise<void> {
  const recorded = await openRecorded(browser, `${site.server.url}${file}`);
  try {
    await check(recorded);
    expect(recorded.requests.length, "the page made no request at all").toBeGreaterThan(0);
    expect(recorded.outside, "requests that would leave 127.0.0.1").toEqual([]);
    expect(recorded.requests.filter((url) => !staysLocal(url)), "requests to other hosts").toEqual([]);
    expect(recorded.errors).toEqual([]);
  } finally {
    await recorded.close();
  }
}

interface RenderedOperation {
  id: string;
  heading: string;
  tabs: string[];
  /** Headings of the right-hand panel: "Request samples", "Response samples". */
  panels: string[];
}

describe("docs site in chromium", () => {
  it("shows every operation with its summary and code samples, offline and without errors", async () => {
    await onPage("reference.html", async ({ page }) => {
      await page.waitForSelector('[data-section-id^="operation/"]');
      const rendered: RenderedOperation[] = await page.evaluate(() =>
        [...document.querySelectorAll('[data-section-id^="operation/"]')].map((section) => ({
          id: section.getAttribute("data-section-id") ?? "",
          heading: section.querySelector("h2")?.textContent?.trim() ?? "",
          tabs: [...section.querySelectorAll('[role="tab"]')].map((tab) => tab.textContent ?? ""),
          panels: [...section.querySelectorAll("h3")].map((heading) => heading.textContent?.trim() ?? ""),
        })),
      );
      const byId = new Map(rendered.map((operation) => [operation.id, operation]));
      for (const { operation } of operations(doc)) {
        const shown = byId.get(`operation/${operation.operationId}`);
        expect(shown, `${operation.operationId} is on the reference page`).toBeDefined();
        expect(shown?.heading).toBe(operation.summary);
        expect(shown?.tabs, `${operation.operationId} code samples`).toEqual(expect.arrayContaining([SAMPLE_LABELS.curl, SAMPLE_LABELS.client]));
        // Redoc shows the request body example as the "Payload" tab beside the code samples.
        if (operation.requestBody) expect(shown?.tabs, `${operation.operationId} request example`).toContain("Payload");
        expect(shown?.panels, `${operation.operationId} panels`).toEqual(expect.arrayContaining(["Request samples", "Response samples"]));
        for (const status of Object.keys(operation.responses)) expect(shown?.tabs, `${operation.operationId} response ${status}`).toContain(status);
      }
      expect(rendered).toHaveLength(operations(doc).length);

      // The first create operation's top, with its request samples, just below the sticky site navigation.
      await page.evaluate(() => {
        document.querySelector('[data-section-id="operation/createImageIA"]')?.scrollIntoView({ block: "start" });
        window.scrollBy(0, -(document.querySelector("nav.site-nav")?.getBoundingClientRect().height ?? 0));
      });
      await page.locator('[data-section-id="operation/createImageIA"] [role="tab"]', { hasText: SAMPLE_LABELS.curl }).click();
      mkdirSync(join(PROJECT_ROOT, "test-results"), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
    });
  });

  it("renders the errors guide with its generated moderation table and the shared navigation", async () => {
    await onPage("errors.html", async ({ page }) => {
      expect(await page.locator("h1").textContent()).toBe("Errors");
      const cells = await page.locator("main table td code").allTextContents();
      for (const reason of readServiceModel(doc).errors.moderation.reasons) expect(cells).toContain(reason);
      const nav = await page.locator("nav.site-nav a").allTextContents();
      expect(nav).toEqual(expect.arrayContaining(["API reference", "Price tables", "Not shown"]));
      expect(await page.locator('nav.site-nav a[aria-current="page"]').textContent()).toBe("Errors");
    });
  });

  it("renders the price tables", async () => {
    await onPage("prices.html", async ({ page }) => {
      const tables = page.locator("main table");
      expect(await tables.count()).toBeGreaterThan(0);
      expect(await tables.first().locator("tbody tr").count()).toBeGreaterThan(0);
      const text = await page.locator("main").textContent();
      for (const { operation } of operations(doc)) {
        const label = operation["x-model-label"];
        if (typeof label === "string" && operation["x-pricing"] !== undefined) expect(text, `price of ${label}`).toContain(label);
      }
    });
  });
});
