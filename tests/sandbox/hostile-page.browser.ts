/**
 * A page of another site against a running sandbox, in Debian's chromium, as the finding was made:
 * the page (served on another port of 127.0.0.1, another origin) and a sandboxed frame in it
 * (`<iframe sandbox="allow-scripts">`, whose requests carry `Origin: null`) try to read the balance
 * and create a job with the demo key. Neither reads an answer, and no job is created or charged.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../docs/browser-session.ts";
import { checkedSandboxes, configWith, example, KEY, routeWhere } from "./support.ts";

const sandbox = checkedSandboxes();
const image = routeWhere((route) => route.label === "I-A");
let browser: Browser;
let site: Server;
let page = "";

beforeAll(async () => {
  browser = await launchChromium();
  site = createServer((_request, response) =>
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page),
  ).listen(0, "127.0.0.1");
  await once(site, "listening");
});
afterAll(async () => {
  await browser?.close();
  site?.close();
});

/** What the page's script does, from the page and from its sandboxed frame: each outcome is posted to the page. */
function attack(sandboxUrl: string): string {
  return `
    const report = (what) => parent.postMessage(what, "*");
    const tries = [
      ["read", fetch(${JSON.stringify(`${sandboxUrl}/v1/account/credits`)}, { headers: { authorization: "Bearer ${KEY}" } })],
      ["create", fetch(${JSON.stringify(`${sandboxUrl}${image.path}`)}, { method: "POST", headers: { authorization: "Bearer ${KEY}", "content-type": "application/json" }, body: ${JSON.stringify(JSON.stringify(example(image.path)))} })],
      ["create without CORS", fetch(${JSON.stringify(`${sandboxUrl}${image.path}`)}, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: "{}" })],
    ];
    for (const [name, sent] of tries) sent.then((answer) => answer.text().then((text) => report(name + ": read " + answer.status + " " + text)), () => report(name + ": blocked"));
  `;
}

describe("a page of another site against a running sandbox", () => {
  it("neither reads an answer nor creates a job, from the page or from its sandboxed frame (Origin null)", {
    timeout: 60_000,
  }, async () => {
    const sb = await sandbox(configWith());
    const before = await sb.send("GET", "/v1/account/credits");
    const script = attack(sb.url);
    page = `<!doctype html><body><script>
      window.outcomes = [];
      addEventListener("message", (event) => window.outcomes.push((event.origin === "null" ? "frame " : "page ") + event.data));
      ${script.replace(/parent\.postMessage\(what, "\*"\)/, "window.postMessage(what, location.origin)")}
    </script><iframe sandbox="allow-scripts" srcdoc="${`<script>${script}</script>`.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></iframe></body>`;
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      await tab.waitForFunction(() => (window as unknown as { outcomes: string[] }).outcomes.length === 6, undefined, {
        timeout: 30_000,
      });
      const outcomes = (await tab.evaluate(() => (window as unknown as { outcomes: string[] }).outcomes)).sort();
      // A no-cors answer is opaque (status 0, no text): the page learns nothing from it.
      expect(outcomes).toEqual([
        "frame create without CORS: read 0 ",
        "frame create: blocked",
        "frame read: blocked",
        "page create without CORS: read 0 ",
        "page create: blocked",
        "page read: blocked",
      ]);
    } finally {
      await context.close();
    }
    const after = await sb.send("GET", "/v1/account/credits");
    expect(after.json.monthly_used).toBe(before.json.monthly_used);
    expect(sb.running.state.jobs.size).toBe(0);
  });
});
