/**
 * The docs laid out as readers of Scalar's and Stripe's docs expect, in Debian's chromium at desktop
 * (1280 px) and phone (420 px) width, each page checked offline (no request outside the site and
 * 127.0.0.1, no error): the try-it console in the page's flow under its operation, never over the
 * samples and covered by nothing; the header on at most two lines; one search finding a guide's and
 * the reference's content from either page; a sidebar listing every page on every page; code
 * highlighted; the typed-client sample importing the published package; the console's example
 * named as Redoc names it; no empty band under the introduction; dark colours when the system asks.
 * Screenshots at both widths go to test-results/browser/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_LABELS } from "../../docs-src/code-samples.ts";
import { PROJECT_ROOT } from "../../docs-src/site.ts";
import { SITE_PAGES } from "../../docs-src/site-pages.ts";
import { loadBundle } from "../../model/document.ts";
import { launchChromium, openRecorded, type PageView, type RecordedPage } from "./browser-session.ts";
import { buildAndServe, type BuiltSite } from "./built-site.ts";

const SCREENSHOTS = join(PROJECT_ROOT, "test-results", "browser");
const OPERATION = "createImageIA";
/** From the description, as the issue quotes them. */
const OPERATION_SUMMARY = "Create an image with I-A (text-to-image and editing, five sizes)";
const FIRST_EXAMPLE = "Text-to-image at the default size";
const WIDTHS = [1280, 420] as const;

let site: BuiltSite;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([buildAndServe(loadBundle()), launchChromium()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await site?.remove();
});

/** Opens a page of the site (served unless said), runs the checks, then asserts it stayed offline and error-free. */
async function onPage(
  file: string,
  view: PageView,
  check: (page: Page) => Promise<void>,
  from: "served" | "disk" = "served",
): Promise<void> {
  const folder = from === "disk" ? `${pathToFileURL(site.dir).href}/` : undefined;
  const recorded: RecordedPage = await openRecorded(
    browser,
    from === "disk" ? `${folder}${file}` : `${site.server.url}${file}`,
    folder,
    view,
  );
  try {
    if (file === "reference.html") await recorded.page.locator(".try-it-open").first().waitFor();
    await check(recorded.page);
    expect(recorded.outside, "requests that would leave the site and 127.0.0.1").toEqual([]);
    expect(recorded.errors).toEqual([]);
  } finally {
    await recorded.close();
  }
}

const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Scrolls the element's top to just below the header, then returns the points of its visible part
 * that another element covers (the topmost element there is neither it nor inside it).
 */
async function coveredPoints(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((css) => {
    const element = document.querySelector(css)!;
    element.scrollIntoView({ block: "start" });
    window.scrollBy(0, -(document.querySelector("header.site-header")!.getBoundingClientRect().height + 8));
    const box = element.getBoundingClientRect();
    const top = Math.max(box.top, 0) + 8;
    const bottom = Math.min(box.bottom, innerHeight) - 8;
    const points = [top, (top + bottom) / 2, bottom].flatMap((y) =>
      [box.left + 8, box.left + box.width / 2, box.right - 8].map((x) => [x, y] as const),
    );
    return points
      .filter(([x, y]) => !element.contains(document.elementFromPoint(x, y)))
      .map(([x, y]) => `${Math.round(x)},${Math.round(y)}: ${document.elementFromPoint(x, y)?.outerHTML.slice(0, 80)}`);
  }, selector);
}

/** Opens the console on the operation, scrolled so its top is just below the header. */
async function openConsole(page: Page): Promise<void> {
  await page.locator(`.try-it-open[data-operation="${OPERATION}"]`).click();
  await page.locator("#try-it").waitFor();
  await page.evaluate(() => {
    document.getElementById("try-it")!.scrollIntoView({ block: "start" });
    window.scrollBy(0, -(document.querySelector("header.site-header")!.getBoundingClientRect().height + 8));
  });
}

describe("the reference's try-it console", () => {
  for (const width of WIDTHS) {
    it(`sits in the page's flow under its operation at ${width} px, beside the samples and covered by nothing`, async () => {
      await onPage("reference.html", { width }, async (page) => {
        await openConsole(page);
        const section = page.locator(`[data-section-id="operation/${OPERATION}"]`);
        expect(await section.locator("#try-it").count(), "inside its operation's section").toBe(1);
        const samples = section.locator("h3", { hasText: "Request samples" }).locator("..");
        const consoleBox = (await page.locator("#try-it").boundingBox())!;
        const samplesBox = (await samples.boundingBox())!;
        expect(
          overlaps(consoleBox, samplesBox),
          `console ${JSON.stringify(consoleBox)} and samples ${JSON.stringify(samplesBox)}`,
        ).toBe(false);
        expect(await coveredPoints(page, "#try-it")).toEqual([]);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          "nothing wider than the window",
        ).toBeLessThanOrEqual(width);
        await shot(page, `layout-try-it-${width}`);
        // Redoc's samples are where they were: beside the operation (1280) or under it (420), and nothing covers them.
        await samples.evaluate((element) => element.setAttribute("data-request-samples", ""));
        expect(await coveredPoints(page, "[data-request-samples]")).toEqual([]);
        await shot(page, `layout-samples-${width}`);
      });
    });
  }

  it("names its examples as Redoc does, and shows the typed-client sample as a consumer writes it", async () => {
    await onPage("reference.html", { width: 1280 }, async (page) => {
      await openConsole(page);
      const options = await page.locator('#try-it select[name="example"] option').allTextContents();
      expect(options[0]).toBe(FIRST_EXAMPLE);
      const section = page.locator(`[data-section-id="operation/${OPERATION}"]`);
      expect(
        await section.locator("h3", { hasText: "Request samples" }).locator("..").textContent(),
        "Redoc's name for it",
      ).toContain(FIRST_EXAMPLE);
      await section.locator('[role="tab"]', { hasText: SAMPLE_LABELS.client }).click();
      const code = await section.locator('[role="tabpanel"]:visible').first().textContent();
      expect(code).toContain('import { createClient } from "@media-service/client";');
      expect(code).not.toContain("generated/client");
      expect(
        await section.locator('[role="tabpanel"]:visible .token').count(),
        "the sample highlighted",
      ).toBeGreaterThan(0);
    });
  });
});

describe("the header and the sidebar", () => {
  it("puts a sidebar listing every page on every page (at 1280 px)", async () => {
    for (const current of SITE_PAGES) {
      await onPage(current.file, { width: 1280 }, async (page) => {
        const sidebar = page.locator("#site-sidebar");
        expect(await sidebar.isVisible(), current.file).toBe(true);
        expect(await sidebar.locator(":scope > ul > li > a").allTextContents(), current.file).toEqual(
          SITE_PAGES.map((page) => page.nav),
        );
        expect(await sidebar.locator('a[aria-current="page"]').textContent(), current.file).toBe(current.nav);
      });
    }
  });

  for (const file of ["getting-started.html", "reference.html"]) {
    it(`keeps the header to two lines at 420 px and opens the sidebar from its menu button (${file})`, async () => {
      await onPage(file, { width: 420 }, async (page) => {
        // A row starts where an element begins below the bottom of everything before it.
        const lines = await page.evaluate(() => {
          const boxes = [...document.querySelectorAll("header.site-header > *")]
            .filter((element) => (element as HTMLElement).offsetParent !== null)
            .map((element) => element.getBoundingClientRect())
            .sort((a, b) => a.top - b.top);
          let rows = 0;
          let bottom = -Infinity;
          for (const box of boxes) {
            if (box.top >= bottom) rows += 1;
            bottom = Math.max(bottom, box.bottom);
          }
          return rows;
        });
        expect(lines, "rows of the header").toBeLessThanOrEqual(2);
        await shot(page, `layout-${file.replace(".html", "")}-420`);
        const sidebar = page.locator("#site-sidebar");
        expect(await sidebar.isVisible(), "folded at first").toBe(false);
        await page.locator(".menu-toggle").click();
        await sidebar.locator('a[aria-current="page"]').waitFor({ state: "visible" });
        expect(await sidebar.locator(":scope > ul > li > a").allTextContents()).toEqual(
          SITE_PAGES.map((page) => page.nav),
        );
        await shot(page, `layout-${file.replace(".html", "")}-420-menu`);
      });
    });
  }
});

describe("one search across guides and reference", () => {
  /** Types a query and returns the results' addresses. */
  async function search(page: Page, query: string): Promise<string[]> {
    await page.locator("#site-search").fill(query);
    await page.locator("#site-search-results li").first().waitFor();
    return page
      .locator("#site-search-results a")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  }

  for (const [file, width] of [
    ["getting-started.html", 1280],
    ["reference.html", 420],
  ] as const) {
    it(`finds a guide's section and a reference operation from ${file} (${width} px), opened from disk`, async () => {
      await onPage(
        file,
        { width },
        async (page) => {
          expect(await search(page, "moderation blocks")).toContain("errors.html#moderation-blocks");
          expect(await search(page, "image I-A five sizes")).toContain(`reference.html#operation/${OPERATION}`);
          await shot(page, `layout-search-${file.replace(".html", "")}-${width}`);
          // Focus leaving the search (a click elsewhere) folds the results; coming back shows them again.
          await page.locator("#site-search").blur();
          await page.locator("#site-search-results").waitFor({ state: "hidden" });
          await page.locator("#site-search").focus();
          await page.locator("#site-search-results").waitFor({ state: "visible" });
          await page.locator(`#site-search-results a[href="reference.html#operation/${OPERATION}"]`).click();
          const heading = page.locator(`[data-section-id="operation/${OPERATION}"] h2`);
          await heading.waitFor();
          await expect
            .poll(() => heading.evaluate((element) => Math.round(element.getBoundingClientRect().top)), {
              message: "the operation scrolled to",
            })
            .toBeLessThan(300);
          expect((await heading.textContent())?.trim()).toBe(OPERATION_SUMMARY);
        },
        "disk",
      );
    });
  }
});

describe("the pages' look", () => {
  it("highlights the guides' code at build time", async () => {
    await onPage("getting-started.html", { width: 1280 }, async (page) => {
      const blocks = page.locator("main pre");
      expect(await blocks.count()).toBeGreaterThan(0);
      expect(await page.locator("main pre .token.string").count(), "strings coloured").toBeGreaterThan(0);
      const colours = await page
        .locator("main pre .token")
        .evaluateAll((tokens) => new Set(tokens.map((token) => getComputedStyle(token).color)).size);
      expect(colours, "tokens in more than one colour").toBeGreaterThan(1);
    });
  });

  for (const width of WIDTHS) {
    it(`leaves no empty band under the reference's introduction (${width} px)`, async () => {
      await onPage("reference.html", { width }, async (page) => {
        const gap = await page.evaluate(() => {
          const [intro, next] = document.querySelectorAll(".api-content > div");
          const lastText = [...intro!.querySelectorAll("p")].at(-1)!.getBoundingClientRect().bottom;
          return next!.querySelector("h2")!.getBoundingClientRect().top - lastText;
        });
        // Was 120 px at 1280 and 420 px: Redoc's 40 px paddings below one section and above the next, and the heading's margin.
        expect(gap).toBeLessThan(64);
        await shot(page, `layout-intro-${width}`);
      });
    });
  }

  for (const width of WIDTHS) {
    it(`follows the system's dark preference on the guides and the reference (${width} px)`, async () => {
      const luminance = (css: string): number => {
        const [r = 0, g = 0, b = 0] = (css.match(/\d+(\.\d+)?/g) ?? []).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      };
      for (const file of ["errors.html", "reference.html"]) {
        await onPage(file, { width, colorScheme: "dark" }, async (page) => {
          const text = file === "reference.html" ? ".api-content h1" : "main h1";
          const colours = await page.evaluate(
            (selector) => ({
              background: getComputedStyle(document.body).backgroundColor,
              text: getComputedStyle(document.querySelector(selector)!).color,
            }),
            text,
          );
          expect(luminance(colours.background), `${file} background ${colours.background}`).toBeLessThan(0.2);
          expect(luminance(colours.text), `${file} text ${colours.text}`).toBeGreaterThan(0.7);
          await shot(page, `layout-dark-${file.replace(".html", "")}-${width}`);
        });
      }
    });
  }
});

describe("the reference's first render", () => {
  it("is timed served and from disk (recorded, not asserted: the machine is shared)", async () => {
    const times: Record<string, number> = {};
    for (const from of ["served", "disk"] as const) {
      const folder = `${pathToFileURL(site.dir).href}/`;
      const url = from === "disk" ? `${folder}reference.html` : `${site.server.url}reference.html`;
      const { page, close } = await openRecorded(browser, "about:blank", from === "disk" ? folder : undefined);
      try {
        const started = Date.now();
        await page.goto(url);
        await page.locator(".try-it-open").first().waitFor();
        times[from] = Date.now() - started;
      } finally {
        await close();
      }
    }
    expect(Object.keys(times)).toEqual(["served", "disk"]);
    writeFileSync(
      join(SCREENSHOTS, "reference-first-render.json"),
      `${JSON.stringify({ ...times, unit: "ms, navigation to the first Try it button" }, null, 2)}\n`,
    );
    console.log(`reference first render: served ${times.served} ms, from disk ${times.disk} ms`);
  });
});
