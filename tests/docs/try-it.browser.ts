/**
 * The reference page's try-it console in Debian's chromium against a sandbox started in-process:
 * served, it creates an image job with the operation's first named example, follows it to success
 * and shows its result files and its charge (the price table's quote), with the rate-limit headers
 * highlighted and shown unfolded, and the key nowhere but the request; opened from disk (origin `null`), a wrong key
 * shows the sandbox's 401 body. Screenshots and the reader's timings go to test-results/browser/.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../docs-src/site.ts";
import { loadBundle } from "../../model/document.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { quoteRoute } from "../../runtime/costs/quote.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { serveStatic } from "../../docs-src/static-server.ts";
import { launchChromium, openRecorded, type RecordedPage } from "./browser-session.ts";
import { buildAndServe, type BuiltSite } from "./built-site.ts";

const doc = loadBundle();
const model = readServiceModel(doc);
const SCREENSHOTS = join(PROJECT_ROOT, "test-results", "browser");
/** A key of the demo account that appears nowhere in the site, so the test can look for it. */
const KEY = `docs-console-key-${process.pid}`;
const IMAGE = model.createRoutes.find((route) => route.label === "I-A")!;

let site: BuiltSite;
let sandbox: RunningSandbox;
let browser: Browser;

beforeAll(async () => {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as {
    accounts: Record<string, { keys: string[] }>;
  };
  Object.values(config.accounts)[0]!.keys.push(KEY);
  [site, browser] = await Promise.all([buildAndServe(doc), launchChromium()]);
  // The site is served on a free port, not the docs server's default: its origin is allowed as a
  // user allows it (--allow-origin), and null for the page opened from disk.
  sandbox = await startSandbox({ config, port: 0, allowedOrigins: [new URL(site.server.url).origin, "null"] });
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await site?.remove();
});

/** Opens the console on the image create route with the base URL and key filled in, and sends its first example. */
async function sendImageCreate(page: Page, apiKey: string, baseUrl = sandbox.url): Promise<void> {
  await page.locator(`.try-it-open[data-operation="${IMAGE.operationId}"]`).click();
  const panel = page.locator("#try-it");
  await panel.locator('input[name="base-url"]').fill(baseUrl);
  await panel.locator('input[name="api-key"]').fill(apiKey);
  expect(await panel.locator('select[name="example"]').inputValue()).toBe(
    Object.keys(doc.paths[IMAGE.path]!.post!.requestBody!.content["application/json"]!.examples!)[0],
  );
  await panel.locator(".try-it-send").click();
}

function exampleBody(): Record<string, unknown> {
  const [first] = Object.values(doc.paths[IMAGE.path]!.post!.requestBody!.content["application/json"]!.examples!);
  return (first as { value: Record<string, unknown> }).value;
}

describe("the try-it console", () => {
  it("creates an image job on the sandbox and shows it succeeded, with its images and its charge", async () => {
    const opened = Date.now();
    const recorded: RecordedPage = await openRecorded(browser, `${site.server.url}reference.html`);
    try {
      const { page } = recorded;
      await page.waitForSelector(".try-it-open");
      const ready = Date.now();
      await sendImageCreate(page, KEY);
      const sent = Date.now();
      const job = page.locator(".try-it-job[data-final]");
      await job.waitFor({ timeout: 80_000 });
      const succeeded = Date.now();

      expect(await job.getAttribute("data-final")).toBe(model.jobStatus.success);
      expect(
        await page.locator(".try-it-output > .try-it-answer").getAttribute("data-status"),
        "the create's status",
      ).toBe("200");
      const lastPoll = JSON.parse((await job.locator(".try-it-answer pre.body").textContent()) ?? "null") as Record<
        string,
        unknown
      >;
      expect(lastPoll.status).toBe(model.jobStatus.success);
      const links = await job.locator(".job-results a").allTextContents();
      expect(links.length, "result files shown").toBeGreaterThan(0);
      expect(JSON.stringify(lastPoll), "every shown result is the poll's").toContain(links[0]);
      const price = quoteRoute(model.priceTables, IMAGE.path, exampleBody()).credits;
      expect(price, "the example's quote").toBeGreaterThan(0);
      expect(await job.locator(".job-charge").textContent()).toContain(`total_available: −${price}`);
      const highlighted = await page.locator(".try-it-output > .try-it-answer tr.highlight th").allTextContents();
      expect(highlighted).toEqual(
        expect.arrayContaining(Object.values(model.rateLimitHeaders).map((name) => name.toLowerCase())),
      );
      // Shown, not folded away with the other headers.
      for (const row of await page.locator(".try-it-output > .try-it-answer tr.highlight").all())
        expect(await row.isVisible(), (await row.textContent()) ?? "").toBe(true);

      // The key went out in the Authorization header only.
      const html = await page.evaluate(() => document.documentElement.outerHTML);
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
      for (const [where, text] of Object.entries({
        url: page.url(),
        html,
        localStorage: stored,
        console: recorded.messages.join("\n"),
        requests: recorded.requests.join("\n"),
      })) {
        expect(text.includes(KEY), `the key in the ${where}`).toBe(false);
      }
      expect(recorded.outside).toEqual([]);
      expect(recorded.errors).toEqual([]);

      await job.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, "try-it-succeeded.png") });
      const timings = {
        pageReadyMs: ready - opened,
        sendClickedMs: sent - opened,
        jobSucceededMs: succeeded - opened,
        jobRunMs: succeeded - sent,
      };
      writeFileSync(join(SCREENSHOTS, "try-it-timings.json"), `${JSON.stringify(timings, null, 2)}\n`);
      console.log(
        `try-it console: page ready ${timings.pageReadyMs} ms, job succeeded ${timings.jobSucceededMs} ms after opening the page`,
      );
    } finally {
      await recorded.close();
    }
  });

  it("shows a 429's Retry-After with the rate-limit headers, unfolded", async () => {
    // One request a window per key: the console's credits read takes it, the create gets the 429.
    const config = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as {
      accounts: Record<string, { keys: string[] }>;
      limits?: Record<string, unknown>;
    };
    Object.values(config.accounts)[0]!.keys.push(KEY);
    config.limits = { ...config.limits, requests: { perKey: 1 } };
    const limited = await startSandbox({ config, port: 0, allowedOrigins: [new URL(site.server.url).origin, "null"] });
    const recorded = await openRecorded(browser, `${site.server.url}reference.html`);
    try {
      const { page } = recorded;
      await page.waitForSelector(".try-it-open");
      await sendImageCreate(page, KEY, limited.url);
      const answer = page.locator('.try-it-answer[data-status="429"]');
      await answer.waitFor();
      const shown = answer.locator("tr.highlight");
      expect((await shown.locator("th").allTextContents()).sort()).toEqual(
        [model.retryAfterHeader, ...Object.values(model.rateLimitHeaders)].map((name) => name.toLowerCase()).sort(),
      );
      for (const row of await shown.all()) expect(await row.isVisible(), (await row.textContent()) ?? "").toBe(true);
      await answer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, "try-it-rate-limited.png") });
      expect(recorded.outside).toEqual([]);
      // The browser reports the 429 itself; nothing else may go wrong.
      expect(recorded.errors.filter((error) => !error.includes("429"))).toEqual([]);
    } finally {
      await recorded.close();
      await limited.close();
    }
  });

  it("shows the sandbox's 401 body for a wrong key, opened from disk", async () => {
    const folder = `${pathToFileURL(site.dir).href}/`;
    const recorded = await openRecorded(browser, `${folder}reference.html`, folder);
    try {
      const { page } = recorded;
      await page.waitForSelector(".try-it-open");
      await sendImageCreate(page, "not-a-key-of-any-account");
      const answer = page.locator(".try-it-answer");
      await answer.waitFor();
      expect(await answer.getAttribute("data-status")).toBe("401");
      const direct = await fetch(`${sandbox.url}${IMAGE.path}`, {
        method: "POST",
        headers: { authorization: "Bearer not-a-key-of-any-account", "content-type": "application/json" },
        body: JSON.stringify(exampleBody()),
      });
      expect(JSON.parse((await answer.locator("pre.body").textContent()) ?? "null")).toEqual(await direct.json());
      expect(await page.locator(".try-it-job").count(), "no job is followed").toBe(0);
      await page.screenshot({ path: join(SCREENSHOTS, "try-it-wrong-key.png") });
      expect(recorded.outside).toEqual([]);
      // The browser reports the 401 itself; nothing else may go wrong.
      expect(recorded.errors.filter((error) => !error.includes("401"))).toEqual([]);
    } finally {
      await recorded.close();
    }
  });

  it("finds the sandbox's port, and when the sandbox refuses the page, says why and the flag it logs too", async () => {
    // A sandbox on another port that was not told of these docs, and the docs server that found it.
    const refusals: string[] = [];
    const other = await startSandbox({
      port: 0,
      onRefusal: (request) => refusals.push(String(request.headers.origin)),
    });
    const docs = await serveStatic(site.dir, 0, { localSandbox: () => other.url });
    const origin = new URL(docs.url).origin;
    const recorded = await openRecorded(browser, `${docs.url}reference.html`);
    try {
      const { page } = recorded;
      await page.waitForSelector(".try-it-open");
      await page.locator(`.try-it-open[data-operation="${IMAGE.operationId}"]`).click();
      const panel = page.locator("#try-it");
      await expect.poll(() => panel.locator('input[name="base-url"]').inputValue()).toBe(other.url);
      expect(await panel.locator("label", { hasText: "Base URL" }).textContent()).toContain("running in this project");
      await panel.locator('input[name="api-key"]').fill(KEY);
      await panel.locator(".try-it-send").click();
      const problem = panel.locator(".problem", { hasText: "withheld" });
      await problem.waitFor();
      const advice = (await problem.textContent()) ?? "";
      const flag = `--allow-origin ${origin}`;
      expect(advice).toContain(`npm run sandbox -- --port ${new URL(other.url).port} ${flag}`);
      // The sandbox heard of the same page, and its log names the same flag (sandbox/cli.ts, cli-refusals.test.ts).
      expect(refusals).toContain(origin);
      await problem.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, "try-it-refused-origin.png") });
      // Nothing listening: the console says so, with the command that starts the sandbox.
      await panel.locator('input[name="base-url"]').fill("http://127.0.0.1:9");
      await panel.locator(".try-it-send").click();
      const nothing = panel.locator(".problem", { hasText: "Nothing answers" });
      await nothing.waitFor();
      expect(await nothing.textContent()).toContain("npm run sandbox -- --port 9");
      expect(recorded.outside).toEqual([]);
    } finally {
      await recorded.close();
      await docs.close();
      await other.close();
    }
  });
});
