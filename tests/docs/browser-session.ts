/**
 * Opens pages of the built docs site in Debian's chromium (driven by playwright-core) and records
 * every request, console error and page error. Requests to anything but 127.0.0.1 are recorded and
 * aborted, so a page that tries to reach outside fails the test without leaving this machine.
 */
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}

/**
 * True for URLs that stay on this machine: 127.0.0.1, inline data:/blob:/about: URLs, and, for a
 * page opened from disk, the files under `ownFolder` (a file: URL ending in /).
 */
export function staysLocal(url: string, ownFolder?: string): boolean {
  const parsed = new URL(url);
  if (["data:", "blob:", "about:"].includes(parsed.protocol)) return true;
  if (parsed.protocol === "file:") return ownFolder !== undefined && url.startsWith(ownFolder);
  return parsed.hostname === "127.0.0.1";
}

export interface RecordedPage {
  page: Page;
  requests: string[];
  /** Requests that would have left 127.0.0.1 (aborted by the route). */
  outside: string[];
  /** Console errors, page errors and failed local requests. */
  errors: string[];
  /** Every console message, of any type. */
  messages: string[];
  close(): Promise<void>;
}

export interface PageView {
  /** Viewport width in CSS pixels (default 1400). */
  width?: number;
  /** Viewport height in CSS pixels (default 900). */
  height?: number;
  /** The system colour scheme the page sees (default light). */
  colorScheme?: "light" | "dark";
}

/**
 * Opens `url` recording everything; `ownFolder`: the file: folder whose files a page from disk may
 * load; `view`: the window's width and colour scheme.
 */
export async function openRecorded(
  browser: Browser,
  url: string,
  ownFolder?: string,
  view: PageView = {},
): Promise<RecordedPage> {
  const context = await browser.newContext({
    viewport: { width: view.width ?? 1400, height: view.height ?? 900 },
    colorScheme: view.colorScheme ?? "light",
  });
  const requests: string[] = [];
  const outside: string[] = [];
  const errors: string[] = [];
  const messages: string[] = [];
  await context.route("**/*", async (route) => {
    const target = route.request().url();
    if (staysLocal(target, ownFolder)) await route.continue();
    else {
      outside.push(target);
      await route.abort("blockedbyclient");
    }
  });
  const page = await context.newPage();
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    messages.push(message.text());
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => {
    if (staysLocal(request.url(), ownFolder))
      errors.push(`failed request: ${request.url()} (${request.failure()?.errorText ?? ""})`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(url, { waitUntil: "networkidle" });
  return { page, requests, outside, errors, messages, close: () => context.close() };
}
