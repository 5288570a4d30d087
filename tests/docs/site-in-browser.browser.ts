/**
 * Builds the docs site into a temporary folder, serves it on 127.0.0.1 and opens it in Debian's
 * chromium: every page, served and opened from disk, loads without an error or a request outside
 * 127.0.0.1 and the site's own files (a screenshot of each in test-results/browser/); every
 * operation of the description is on the reference page with its code samples and a "Try it"
 * button; a guide and the price tables render.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_LABELS } from "../../docs-src/code-samples.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { PROJECT_ROOT } from "../../docs-src/site.ts";
import { SITE_PAGES } from "../../docs-src/site-pages.ts";
import { loadBundle, operations } from "../../model/document.ts";
import { launchChromium, openRecorded, staysLocal, type RecordedPage } from "./browser-session.ts";
import { serveStatic } from "../../docs-src/static-server.ts";
import { buildAndServe, type BuiltSite } from "./built-site.ts";

const doc = loadBundle();
const SCREENSHOTS = join(PROJECT_ROOT, "test-results", "browser");

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

/**
 * Opens a page of the site, served or from disk, runs the checks, then asserts it stayed offline
 * and error-free.
 */
async function onPage(
  file: string,
  check: (recorded: RecordedPage) => Promise<void>,
  from: "served" | "disk" = "served",
): Promise<void> {
  const folder = from === "disk" ? `${pathToFileURL(site.dir).href}/` : undefined;
  const recorded = await openRecorded(
    browser,
    from === "disk" ? `${folder}${file}` : `${site.server.url}${file}`,
    folder,
  );
  try {
    await check(recorded);
    expect(recorded.requests.length, "the page made no request at all").toBeGreaterThan(0);
    expect(recorded.outside, "requests that would leave 127.0.0.1 and the site's files").toEqual([]);
    expect(
      recorded.requests.filter((url) => !staysLocal(url, folder)),
      "requests to other hosts",
    ).toEqual([]);
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
  for (const from of ["served", "disk"] as const) {
    it(`loads every page ${from === "disk" ? "opened from disk" : "served"}, without errors or requests outside`, async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      for (const page of SITE_PAGES) {
        await onPage(
          page.file,
          async ({ page: tab }) => {
            if (page.kind === "reference") {
              // Rendered from the description the page carries: every operation, each with its button.
              await tab.waitForSelector(".try-it-open");
              expect(await tab.locator('[data-section-id^="operation/"]').count(), "operations shown").toBe(
                operations(doc).length,
              );
              expect(await tab.locator(".try-it-open").count(), "Try it buttons").toBe(operations(doc).length);
            } else {
              expect(await tab.locator("main h1").count(), `${page.file} has its title`).toBe(1);
            }
            await tab.screenshot({ path: join(SCREENSHOTS, `${from}-${page.file.replace(/\.html$/, "")}.png`) });
          },
          from,
        );
      }
    });
  }

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
        expect(shown?.tabs, `${operation.operationId} code samples`).toEqual(
          expect.arrayContaining([SAMPLE_LABELS.curl, SAMPLE_LABELS.client]),
        );
        // Redoc shows the request body example as the "Payload" tab beside the code samples.
        if (operation.requestBody) expect(shown?.tabs, `${operation.operationId} request example`).toContain("Payload");
        expect(shown?.panels, `${operation.operationId} panels`).toEqual(
          expect.arrayContaining(["Request samples", "Response samples"]),
        );
        for (const status of Object.keys(operation.responses))
          expect(shown?.tabs, `${operation.operationId} response ${status}`).toContain(status);
      }
      expect(rendered).toHaveLength(operations(doc).length);

      // The first create operation's top, with its request samples, just below the sticky site navigation.
      await page.evaluate(() => {
        document.querySelector('[data-section-id="operation/createImageIA"]')?.scrollIntoView({ block: "start" });
        window.scrollBy(0, -(document.querySelector("header.site-header")?.getBoundingClientRect().height ?? 0));
      });
      await page
        .locator('[data-section-id="operation/createImageIA"] [role="tab"]', { hasText: SAMPLE_LABELS.curl })
        .click();
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, "reference-create-image-samples.png") });
    });
  });

  it("renders the errors guide with its generated moderation table and the shared navigation", async () => {
    await onPage("errors.html", async ({ page }) => {
      expect(await page.locator("h1").textContent()).toBe("Errors");
      const cells = await page.locator("main table td code").allTextContents();
      for (const reason of readServiceModel(doc).errors.moderation.reasons) expect(cells).toContain(reason);
      const nav = await page.locator("#site-sidebar a").allTextContents();
      expect(nav).toEqual(expect.arrayContaining(["API reference", "Price tables", "Not shown"]));
      expect(await page.locator('#site-sidebar a[aria-current="page"]').textContent()).toBe("Errors");
    });
  });

  it("reloads when npm run dev's server says so, the pages' CSP allowing its listener", async () => {
    const server = await serveStatic(site.dir, 0, { liveReload: true });
    const recorded = await openRecorded(browser, `${server.url}errors.html`);
    try {
      const reloaded = recorded.page.waitForEvent("load");
      // The listener connects once the page has loaded; a reload sent before would be missed.
      await expect.poll(() => recorded.requests.filter((url) => url.endsWith("/__reload")).length).toBeGreaterThan(0);
      server.reload();
      await reloaded;
      // The reload ends the old page's event stream; nothing else may fail (a refused script would show here).
      expect(recorded.errors.filter((error) => !/__reload \(net::ERR_ABORTED\)$/.test(error))).toEqual([]);
    } finally {
      await recorded.close();
      await server.close();
    }
  });

  it("renders the price tables", async () => {
    await onPage("prices.html", async ({ page }) => {
      const tables = page.locator("main table");
      expect(await tables.count()).toBeGreaterThan(0);
      expect(await tables.first().locator("tbody tr").count()).toBeGreaterThan(0);
      const text = await page.locator("main").textContent();
      for (const { operation } of operations(doc)) {
        const label = operation["x-model-label"];
        if (typeof label === "string" && operation["x-pricing"] !== undefined)
          expect(text, `price of ${label}`).toContain(label);
      }
    });
  });
});
