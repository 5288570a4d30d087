/**
 * `npm run mock -- --verbose` shows Prism's own log (its start, the routes it compiled, each request
 * it answers) beside the mock's one line naming its URL (the quiet line alone is tested with the
 * mock's other CLI tests); a create with a slug that is no model answers as the sandbox does; and a
 * SIGINT to the npm process alone stops the mock and Prism, closing the port.
 */
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../http-server/listen.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { allEnded, descendants, output, until } from "../support/processes.ts";

const { invalidRequest } = loadServiceModel().errors;

describe("npm run mock -- --verbose", () => {
  const started: Array<ReturnType<typeof spawn>> = [];
  afterAll(() => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });

  it("prints Prism's own log with its line, answers an unknown model's create with 400, and stops with Prism on SIGINT to npm", {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const npm = spawn("npm", ["run", "-s", "mock", "--", "--port", String(port), "--verbose"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(npm);
    const text = output(npm);
    const all = (): string => text.stdout() + text.stderr();
    await until(
      () => (text.stdout().includes(`mock of generated/openapi.yaml listening on ${url} `) ? true : undefined),
      `the mock's line (${all()})`,
      45_000,
    );
    expect(text.stderr()).toMatch(/Prism is listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(text.stderr()).toMatch(/POST\s+http:\/\/127\.0\.0\.1:\d+\/v1\/images\//);

    const credits = await fetch(`${url}/v1/account/credits`, { headers: { authorization: "Bearer k" } });
    expect(credits.status).toBe(200);
    await until(
      () => (/get \/v1\/account\/credits .*Request received/.test(text.stderr()) ? true : undefined),
      `Prism's line for the request (${text.stderr()})`,
    );

    const unknown = await fetch(`${url}/v1/images/no-such-model`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: "{}",
    });
    expect(unknown.status).toBe(invalidRequest.status);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(invalidRequest.code);

    const below = descendants(npm.pid!);
    expect(below.some((child) => child.command.includes("prism-cli"))).toBe(true);
    npm.kill("SIGINT");
    await until(() => (npm.exitCode !== null || npm.signalCode !== null ? true : undefined), "npm to exit");
    await allEnded(below);
    expect(
      await fetch(url).then(
        () => "answered",
        () => "closed",
      ),
    ).toBe("closed");
  });
});
