/**
 * Text in the description is data: a copy of the bundle with HTML planted in an operation's
 * description (shown by Redoc on the reference) and in info.description's "Conventions" section
 * (shown on the overview guide) builds a site on which none of it runs, served or from disk. Each
 * defence is checked on its own: the reference shows the description's raw HTML as text (and Redoc's
 * sanitizing would drop the handler), the guides show the HTML as text, and the pages' Content-Security-Policy refuses an inline handler even if one got through.
 */
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../docs-src/site.ts";
import { loadBundle, operations } from "../../model/document.ts";
import { launchChromium, openRecorded } from "./browser-session.ts";
import { buildAndServe, type BuiltSite } from "./built-site.ts";

const SCREENSHOTS = join(PROJECT_ROOT, "test-results", "browser");
/**
 * What an attacker writes: each script part sets a global (the image's handler also the title) if it
 * is ever treated as HTML; the style sheet would hide the reference and the form would ask for a key
 * over it, which Redoc's sanitizer alone lets through.
 */
const PLANTED = `<img src=x onerror="window.__planted_ran=true;document.title='planted ran'"> <script>window.__planted_ran=true</script> <style>#redoc, main { visibility: hidden }</style> <form id="planted-form"><input name="key" placeholder="Your API key"></form>`;
const OPERATION = "createImageIA";

function hostileCopy(): ReturnType<typeof loadBundle> {
  const doc = loadBundle();
  const found = operations(doc).find(({ operation }) => operation.operationId === OPERATION);
  if (!found) throw new Error(`the bundle has no ${OPERATION}`);
  found.operation.description = `${found.operation.description ?? ""}\n\nPlanted: ${PLANTED}\n`;
  const info = String(doc.info.description ?? "");
  if (!info.includes("\n## Conventions\n"))
    throw new Error('info.description has no "## Conventions" section, which the overview guide shows');
  doc.info.description = info.replace("\n## Conventions\n", `\n## Conventions\n\nPlanted: ${PLANTED}\n\n`);
  return doc;
}

let site: BuiltSite;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([buildAndServe(hostileCopy()), launchChromium()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await site?.remove();
});

async function ran(page: Page): Promise<{ global: unknown; title: string }> {
  return page.evaluate(() => ({
    global: (window as unknown as Record<string, unknown>).__planted_ran,
    title: document.title,
  }));
}

describe("HTML planted in the description", () => {
  for (const from of ["served", "disk"] as const) {
    const folder = (): string | undefined => (from === "disk" ? `${pathToFileURL(site.dir).href}/` : undefined);
    const url = (file: string): string => (from === "disk" ? `${folder()}${file}` : `${site.server.url}${file}`);

    it(`does not run on the reference page (${from})`, async () => {
      const { page, outside, close } = await openRecorded(browser, url("reference.html"), folder());
      try {
        const section = page.locator(`[data-section-id="operation/${OPERATION}"]`);
        await section.locator(".try-it-open").waitFor();
        expect(await section.textContent(), "the planted paragraph is on the page").toContain("Planted:");
        expect(await ran(page)).toEqual({ global: undefined, title: expect.not.stringContaining("planted") });
        expect(await page.locator("#redoc [onerror]").count(), "Redoc dropped the handler").toBe(0);
        expect(await page.locator("#redoc script").count(), "Redoc dropped the script").toBe(0);
        expect(
          await page.locator("#redoc style, #redoc form, #redoc input[name=key]").count(),
          "no style or form",
        ).toBe(0);
        expect(await section.textContent(), "the style and form shown as text").toContain("<form id=");
        expect(await page.locator("#redoc").evaluate((element) => getComputedStyle(element).visibility)).toBe(
          "visible",
        );
        expect(outside).toEqual([]);
        await section.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SCREENSHOTS, `hostile-reference-${from}.png`) });
      } finally {
        await close();
      }
    });

    it(`shows as text on the guide page (${from})`, async () => {
      const { page, outside, close } = await openRecorded(browser, url("index.html"), folder());
      try {
        expect(await page.locator("main").textContent(), "the planted HTML as text").toContain(PLANTED);
        expect(await page.locator("main img, main script").count()).toBe(0);
        expect(await ran(page)).toEqual({ global: undefined, title: expect.not.stringContaining("planted") });
        expect(outside).toEqual([]);
      } finally {
        await close();
      }
    });
  }

  it("would be refused by the pages' Content-Security-Policy if it ever reached the page as HTML", async () => {
    for (const file of ["index.html", "reference.html"]) {
      const { page, close } = await openRecorded(browser, `${site.server.url}${file}`);
      try {
        expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').count(), file).toBe(1);
        // Waits for the browser's report that the planted handler was refused (the image fails to load at once).
        const refused = await page.evaluate(
          (html) =>
            new Promise<string>((resolve) => {
              document.addEventListener("securitypolicyviolation", (event) => resolve(event.violatedDirective));
              const holder = document.createElement("div");
              holder.innerHTML = html;
              document.body.append(holder);
            }),
          PLANTED,
        );
        expect(refused, `${file}: the inline handler was refused`).toBe("script-src-attr");
        expect(await ran(page), file).toEqual({ global: undefined, title: expect.not.stringContaining("planted") });
      } finally {
        await close();
      }
    }
  });

  it("cannot be framed by a page of another site, which could lay its own text over the console", async () => {
    const framing = createServer((_request, response) =>
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(`<iframe id="docs" src="${site.server.url}reference.html" width="800" height="600"></iframe>`),
    );
    await new Promise<void>((resolve) => framing.listen(0, "127.0.0.1", resolve));
    const { page, close } = await openRecorded(browser, `http://127.0.0.1:${(framing.address() as AddressInfo).port}/`);
    try {
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      const framedRedoc = frame
        ? await frame
            .locator("#redoc")
            .count()
            .catch(() => 0)
        : 0;
      expect(framedRedoc, "the reference rendered inside the other site's frame").toBe(0);
      expect(frame?.url() ?? "", "the browser blocked the frame").not.toContain("reference.html#");
    } finally {
      await close();
      framing.closeAllConnections();
      await new Promise<void>((resolve) => framing.close(() => resolve()));
    }
  });
});
