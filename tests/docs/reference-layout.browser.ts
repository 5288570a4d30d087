/**
 * The docs laid out as readers of Scalar's and Stripe's docs expect, in Debian's chromium at a
 * laptop's 1280×800 and a phone's 390×844, each page checked offline (no request outside the site
 * and 127.0.0.1, no error): the first operation above the fold, the code panel wide enough for the
 * samples (no line cut; at 1280 px none even wrapped), the try-it console in the page's flow under
 * its operation, never over the samples and covered by nothing; the header on at most two lines;
 * one search finding a guide's and the reference's content from either page, ranked for a client
 * developer ("cooldown": the Limits guide's section first), with snippets, all results on demand,
 * `/` and Ctrl+K; a sidebar listing every page on every page (folded on the reference); code
 * highlighted; the typed-client sample importing the published package; the console's example
 * named as Redoc names it; no empty band under the introduction; dark colours when the system asks.
 * Screenshots at both sizes go to test-results/browser/, and the measurements to
 * test-results/browser/reference-layout.json.
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
/** A laptop's window and a phone's. */
const VIEWS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const WIDTHS = VIEWS.map((view) => view.width);
const PHONE = VIEWS[1].width;
/** The sidebar's links to pages (not to the current page's sections), listed or folded. */
const PAGE_LINKS = ":scope > ul > li > a, :scope > details > ul > li > a";
const viewOf = (width: number): PageView => VIEWS.find((view) => view.width === width) ?? { width };
/** What the layout tests measure, written to test-results/browser/reference-layout.json. */
const measured: Record<string, unknown> = {};

let site: BuiltSite;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([buildAndServe(loadBundle()), launchChromium()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await site?.remove();
  if (Object.keys(measured).length > 0)
    writeFileSync(join(SCREENSHOTS, "reference-layout.json"), `${JSON.stringify(measured, null, 2)}\n`);
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

describe("the reference at first sight", () => {
  for (const view of VIEWS) {
    it(`shows the first operation above the fold at ${view.width}×${view.height}, the site's pages folded to one line`, async () => {
      await onPage("reference.html", view, async (page) => {
        const first = await page.evaluate(() => {
          const operation = document.querySelector('[data-section-id^="operation/"]')!;
          const heading = operation.querySelector("h2")!.getBoundingClientRect();
          const menuTag = document.querySelector('.menu-content li[data-item-id^="tag/"]')?.getBoundingClientRect();
          const pages = document.getElementById("site-sidebar")!.getBoundingClientRect();
          return {
            id: operation.getAttribute("data-section-id"),
            headingTop: Math.round(heading.top),
            headingBottom: Math.round(heading.bottom),
            menuTagTop: menuTag ? Math.round(menuTag.top) : null,
            pagesHeight: Math.round(pages.height),
          };
        });
        measured[`first operation at ${view.width}×${view.height}`] = first;
        expect(first.id).toBe(`operation/${OPERATION}`);
        expect(first.headingBottom, "the first operation's heading is above the fold").toBeLessThanOrEqual(view.height);
        if (view.width === 1280) {
          // Redoc's menu starts right under the folded list of pages: its first tag near the top.
          expect(first.menuTagTop).not.toBeNull();
          expect(first.menuTagTop!).toBeLessThan(160);
          expect(first.pagesHeight, "the pages folded to one line").toBeLessThan(60);
        }
        await shot(page, `layout-first-sight-${view.width}x${view.height}`);
      });
    });

    it(`shows every code sample line whole at ${view.width} px${view.width === 1280 ? ", none even wrapped" : ""}`, async () => {
      await onPage("reference.html", view, async (page) => {
        const section = page.locator(`[data-section-id="operation/${OPERATION}"]`);
        const panels: Record<string, { width: number; cut: boolean; wrappedRows: number }> = {};
        for (const label of Object.values(SAMPLE_LABELS)) {
          await section.getByRole("tab", { name: label, exact: true }).click();
          panels[label] = await section
            .locator('[role="tabpanel"]:visible pre')
            .first()
            .evaluate((pre) => {
              const style = getComputedStyle(pre);
              const rows = Math.round(
                (pre.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) /
                  parseFloat(style.lineHeight),
              );
              return {
                width: pre.clientWidth,
                cut: pre.scrollWidth > pre.clientWidth,
                wrappedRows: rows - (pre.textContent ?? "").split("\n").length,
              };
            });
        }
        // The request payload and the 200 answer (Redoc's JSON viewer) too.
        const json = await section
          .locator(".redoc-json")
          .evaluateAll((viewers) =>
            viewers
              .filter((viewer) => viewer.getBoundingClientRect().height > 0)
              .map((viewer) => viewer.scrollWidth > viewer.clientWidth),
          );
        measured[`code panel at ${view.width}×${view.height}`] = panels;
        for (const [label, panel] of Object.entries(panels)) {
          expect(panel.cut, `${label}: a line hidden past the panel's edge`).toBe(false);
          if (view.width === 1280) expect(panel.wrappedRows, `${label}: lines wrapped at 1280 px`).toBe(0);
        }
        expect(json.length).toBeGreaterThan(0);
        expect(json, "the JSON samples").not.toContain(true);
        if (view.width === 1280) expect(panels[SAMPLE_LABELS.python]!.width).toBeGreaterThanOrEqual(440);
        await shot(page, `layout-code-panel-${view.width}`);
      });
    });
  }
});

describe("the reference's try-it console", () => {
  for (const width of WIDTHS) {
    it(`sits in the page's flow under its operation at ${width} px, beside the samples and covered by nothing`, async () => {
      await onPage("reference.html", viewOf(width), async (page) => {
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
        // Redoc's samples are where they were: beside the operation (1280) or under it (390), and nothing covers them.
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
        // On the reference the list is folded under one line, so that the operations start under it.
        if (current.kind === "reference") await sidebar.locator("summary").click();
        expect(await sidebar.locator(PAGE_LINKS).allTextContents(), current.file).toEqual(
          SITE_PAGES.map((page) => page.nav),
        );
        expect(await sidebar.locator('a[aria-current="page"]').textContent(), current.file).toBe(current.nav);
      });
    }
  });

  for (const file of ["getting-started.html", "reference.html"]) {
    it(`keeps the header to two lines at ${PHONE} px and opens the sidebar from its menu button (${file})`, async () => {
      await onPage(file, VIEWS[1], async (page) => {
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
        await shot(page, `layout-${file.replace(".html", "")}-${PHONE}`);
        const sidebar = page.locator("#site-sidebar");
        expect(await sidebar.isVisible(), "folded at first").toBe(false);
        await page.locator(".menu-toggle").click();
        if (file === "reference.html") await sidebar.locator("summary").click();
        await sidebar.locator('a[aria-current="page"]').waitFor({ state: "visible" });
        expect(await sidebar.locator(`${PAGE_LINKS}:visible`).allTextContents()).toEqual(
          SITE_PAGES.map((page) => page.nav),
        );
        await shot(page, `layout-${file.replace(".html", "")}-${PHONE}-menu`);
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
    ["reference.html", PHONE],
  ] as const) {
    it(`finds a guide's section and a reference operation from ${file} (${width} px), opened from disk`, async () => {
      await onPage(
        file,
        viewOf(width),
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

  for (const view of VIEWS) {
    it(`puts the Limits guide's Cooldown section first for "cooldown", with snippets, all results on demand (${view.width} px)`, async () => {
      await onPage("reference.html", view, async (page) => {
        // "/" from anywhere on the page focuses the search box.
        await page.keyboard.press("/");
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("site-search");
        await page.keyboard.type("cooldown");
        await page.locator("#site-search-results li").first().waitFor();
        const results = page.locator("#site-search-results a");
        expect(await results.first().getAttribute("href")).toBe("limits.html#cooldown");
        expect(await results.first().locator(".result-page").textContent()).toBe("Limits");
        expect(await results.first().locator(".result-snippet").textContent()).toContain(
          "consecutive failed generations",
        );
        // Where an entry's words hold the query, the snippet marks it.
        const marked = await page.locator("#site-search-results .result-snippet mark").allTextContents();
        expect(marked.map((text) => text.toLowerCase())).toContain("cooldown");
        await shot(page, `layout-search-cooldown-${view.width}`);
        // The arrow keys walk the results; Enter follows the one in focus.
        await page.keyboard.press("ArrowDown");
        expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe("limits.html#cooldown");
        await page.keyboard.press("ArrowUp");
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("site-search");
      });
    });
  }

  it("shows the first eight results, then all of them on demand; Ctrl+K focuses the search", async () => {
    await onPage("getting-started.html", VIEWS[0], async (page) => {
      await page.keyboard.press("Control+k");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("site-search");
      await page.keyboard.type("model");
      await page.locator("#site-search-results li").first().waitFor();
      expect(await page.locator("#site-search-results a").count()).toBe(8);
      const more = page.locator("#site-search-results .more-results button");
      const total = Number(/Show all (\d+) results/.exec((await more.textContent()) ?? "")?.[1]);
      expect(total).toBeGreaterThan(8);
      await more.click();
      expect(await page.locator("#site-search-results a").count()).toBe(total);
      expect(await page.evaluate(() => document.activeElement?.getAttribute("href")), "focus on the ninth").toBe(
        await page.locator("#site-search-results a").nth(8).getAttribute("href"),
      );
      // In a field, "/" is typed, not taken by the search.
      await page.keyboard.press("Escape");
      await page.keyboard.press("Escape");
      expect(await page.evaluate(() => document.activeElement?.id)).not.toBe("site-search");
    });
  });
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
      await onPage("reference.html", viewOf(width), async (page) => {
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
        await onPage(file, { ...viewOf(width), colorScheme: "dark" }, async (page) => {
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
