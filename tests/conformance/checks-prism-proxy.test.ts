/**
 * The prism-proxy check (conformance/checks/prism-proxy.ts) on a session of the test's own, fed
 * made-up answers: with Prism as a validation proxy in front of the target (CONFORMANCE_PROXY=on),
 * each request the description holds valid gets one result, named by its method, path and status,
 * that fails with the violations Prism reported in its `sl-violations` header (where, what, and
 * Prism's code) and passes without any. Requests the description holds invalid do not go through
 * the proxy, and without a proxy the check does not run.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { prismProxy } from "../../conformance/checks/prism-proxy.ts";
import type { SendOptions } from "../../conformance/client.ts";
import type { Exchange, ProxyViolation } from "../../conformance/http.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession, jsonExchange, NOWHERE } from "./support/check-session.ts";
import { pricedPathOf } from "../client/labels.ts";

const contract = new Contract();
const I_A_PATH = pricedPathOf("I-A");
const declared = sandboxDeclaration(contract);
const I_A = contract.operations.find((op) => op.create?.label === "I-A") as ContractOperation;
const I_A_ROUTE = `POST ${I_A_PATH}`;
/** Where the proxy would listen, in front of the target at NOWHERE. */
const PROXY = "http://127.0.0.1:10";

/** A session with a validation proxy in front of the target, or (proxied false) without. */
const sessionOf = (proxied: boolean): Session =>
  checkSession({ contract, config: declared, target: proxied ? PROXY : NOWHERE, targetUrl: NOWHERE, proxied });

/** The check sees I-A's create answered `status`, with Prism's `violations`, sent with `options`. */
function seen(session: Session, status: number, violations: ProxyViolation[], options: SendOptions): void {
  const request = { method: "post", path: I_A_PATH, headers: session.main.authorized(), body: {} };
  const exchange: Exchange = { ...jsonExchange(request, status, {}), violations };
  prismProxy.observe?.(session, { client: session.main, op: I_A, exchange, options });
}

const MISSING_MODEL: ProxyViolation = {
  location: ["response", "body"],
  severity: "Error",
  code: "required",
  message: "must have required property 'model'",
};
const WRONG_STATUS: ProxyViolation = {
  location: ["response", "body", "status"],
  severity: "Error",
  code: 4,
  message: "must be equal to one of the allowed values",
};

describe("the prism-proxy check", () => {
  it("passes a valid request's exchange in which Prism found no violation, named by method, path and status", () => {
    const session = sessionOf(true);
    seen(session, 200, [], { positive: true });
    expect(session.results.all).toEqual([
      { group: "prism-proxy", route: I_A_ROUTE, name: `Prism proxy: POST ${I_A_PATH} -> 200`, outcome: "pass" },
    ]);
  });

  it("fails one with Prism's violations, each by where, what and Prism's code, with the request to replay", () => {
    const session = sessionOf(true);
    seen(session, 201, [MISSING_MODEL, WRONG_STATUS], { positive: true });
    expect(session.results.all).toEqual([
      expect.objectContaining({
        route: I_A_ROUTE,
        name: `Prism proxy: POST ${I_A_PATH} -> 201`,
        outcome: "fail",
        detail:
          "response.body: must have required property 'model' [required]; response.body.status: must be equal to one of the allowed values [4]",
      }),
    ]);
    expect(session.results.all[0]?.curl).toContain(I_A_PATH);
  });

  it("judges no request the description holds invalid (it does not go through the proxy)", () => {
    const session = sessionOf(true);
    seen(session, 400, [MISSING_MODEL], {});
    expect(session.results.all).toEqual([]);
  });

  it("judges nothing without a proxy, and says why it does not run", () => {
    const session = sessionOf(false);
    seen(session, 200, [MISSING_MODEL], { positive: true });
    expect(session.results.all).toEqual([]);
    expect(prismProxy.blockedBy?.(session)).toBe(
      "no proxy runs in front of this target (the mock is Prism itself; CONFORMANCE_PROXY=on starts one before a target)",
    );
    expect(prismProxy.blockedBy?.(sessionOf(true))).toBeNull();
  });

  it("names its results by one template, which no rule of its own observes (Prism judges the schemas as a whole)", () => {
    expect(prismProxy.rules).toEqual({ "Prism proxy: {exchange}": [] });
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`prism-proxy\` | ${prismProxy.summary} |`);
  });
});
