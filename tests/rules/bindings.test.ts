/**
 * Who answers to each rule of spec/rules.yaml: the description (pointers that resolve, or why it
 * cannot), the sandbox (files that hold what is named), the conformance checks (named in code, in
 * each check's `rules`), and the injected faults that prove those checks (their `breaks`). A rule
 * that no check names says why; one that a check names says nothing of the kind, so nothing is kept twice.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECKS } from "../../conformance/checks/index.ts";
import { checksByRule, rulesNamed, rulesOf, templateOf } from "../../conformance/rules.ts";
import { readCatalogue } from "../../spec/catalogue.ts";
import { FAULTS, faultNamed, type FaultName } from "../conformance/faults/registry.ts";
import { caughtBy } from "../conformance/support/mutation.ts";

/** As the build has it: the pointers name the create routes by the slugs the build holds. */
const catalogue = readCatalogue();
const bundle = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8")) as unknown;
const root = new URL("../../", import.meta.url);
const byRule = checksByRule(CHECKS, catalogue);

/** The value at a JSON pointer, or undefined. */
function at(document: unknown, pointer: string): unknown {
  if (!pointer.startsWith("/")) return undefined;
  let node = document;
  for (const part of pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"))) {
    if (typeof node !== "object" || node === null || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

describe("who answers to each rule", () => {
  it("the description encodes each rule where a pointer says, or the catalogue says why it cannot", () => {
    const problems = catalogue.rules.flatMap((rule) => {
      const pointers = rule.openapi ?? [];
      if (pointers.length === 0 && !rule["openapi-none"])
        return [`${rule.id}: neither openapi pointers nor openapi-none`];
      if (pointers.length > 0 && rule["openapi-none"]) return [`${rule.id}: both openapi pointers and openapi-none`];
      return pointers
        .filter((pointer) => at(bundle, pointer) === undefined)
        .map((pointer) => `${rule.id}: ${pointer} resolves to nothing in generated/openapi.json`);
    });
    expect(problems).toEqual([]);
  });

  it("names sandbox files that exist and hold what the fragment after # names", () => {
    const problems = catalogue.rules.flatMap((rule) =>
      (rule.sandbox ?? []).flatMap((reference) => {
        const [file, fragment] = reference.split("#") as [string, string | undefined];
        const url = new URL(file, root);
        if (!existsSync(url)) return [`${rule.id}: ${file} does not exist`];
        return fragment === undefined || readFileSync(url, "utf8").includes(fragment)
          ? []
          : [`${rule.id}: ${file} has no "${fragment}"`];
      }),
    );
    expect(problems).toEqual([]);
  });

  it("each registered check names the rules of its results, each reference naming at least one rule", () => {
    expect(CHECKS.filter((check) => check.rules === undefined).map((check) => check.group)).toEqual([]);
    const problems = CHECKS.flatMap((check) =>
      Object.entries(check.rules ?? {}).flatMap(([template, references]) =>
        references
          .filter((reference) => rulesNamed(catalogue, reference.replace(/^!/, "")).length === 0)
          .map((reference) => `[${check.group}] ${template}: ${reference} names no rule`),
      ),
    );
    expect(problems).toEqual([]);
  });

  it("a rule no check names says why (and whether a request could observe it); one a check names does not", () => {
    const problems = catalogue.rules.flatMap((rule) => {
      const checks = byRule.get(rule.id) ?? [];
      if (checks.length === 0 && !rule.unchecked)
        return [`${rule.id}: no check names it and it says no reason (unchecked)`];
      if (checks.length > 0 && (rule.unchecked || rule.observable !== undefined || rule.declare))
        return [`${rule.id}: checked by ${checks.join(", ")}, yet says why it is unchecked`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it("every fault breaks catalogued rules, each named by the check that must catch it (on its route, where one is given)", () => {
    const ids = new Set(catalogue.rules.map((rule) => rule.id));
    const problems = (Object.keys(FAULTS) as FaultName[]).flatMap((fault) => {
      const { breaks } = faultNamed(fault);
      const unknown = breaks.filter((id) => !ids.has(id)).map((id) => `${fault}: breaks ${id}, which names no rule`);
      const { group, check, route } = caughtBy(fault);
      const registered = CHECKS.find((candidate) => candidate.group === group);
      if (!registered || !(check in (registered.rules ?? {})))
        return [...unknown, `${fault}: [${group}] "${check}" is not a name the check declares`];
      const observed = new Set(rulesOf(catalogue, registered.rules?.[check] ?? [], route).map((rule) => rule.id));
      const where = route === undefined ? "" : ` on ${route}`;
      return [
        ...unknown,
        ...(breaks.length === 0 ? [`${fault}: breaks no rule`] : []),
        ...breaks
          .filter((id) => ids.has(id) && !observed.has(id))
          .map((id) => `${fault}: [${group}] "${check}"${where} does not name ${id}`),
      ];
    });
    expect(problems).toEqual([]);
  });

  it("every rule a check names is broken by an injected fault, which that check catches", () => {
    // The catch is proven by the conformance tests (missedFaults); the check naming the rule, above.
    const broken = new Set((Object.keys(FAULTS) as FaultName[]).flatMap((fault) => faultNamed(fault).breaks));
    const unproven = [...byRule].filter(([id, checks]) => checks.length > 0 && !broken.has(id)).map(([id]) => id);
    expect(unproven).toEqual([]);
  });

  it("a result name resolves to the check's declared name with the most fixed text", () => {
    const concurrency = CHECKS.find((check) => check.group === "concurrency")!;
    expect(templateOf(concurrency, "a create beyond the cap of 4 is refused as queue full")).toBe(
      "a create beyond the cap{cap} is refused as queue full",
    );
    expect(templateOf(concurrency, "a create beyond the cap is refused as queue full")).toBe(
      "a create beyond the cap{cap} is refused as queue full",
    );
    expect(templateOf(concurrency, "polls answer while the cap is reached")).toBe(
      "polls answer while the cap is reached",
    );
    expect(templateOf(concurrency, "polls answer while the cap is reached at last")).toBeUndefined();
  });

  it("a route: reference keeps the rules under the result's own operation", () => {
    expect(rulesNamed(catalogue, "route:*.body.num-images", "POST /v1/images/i-b").map((rule) => rule.id)).toEqual([
      "images.i-b.body.num-images",
    ]);
    expect(rulesNamed(catalogue, "*.body.num-images").length).toBeGreaterThan(1);
  });

  it("a ! reference takes out what it names; with no result's route, route: reaches only rules on some operation", () => {
    expect(rulesOf(catalogue, ["route:*.poll"]).map((rule) => rule.id)).toContain("video-upscales.poll");
    expect(rulesOf(catalogue, ["route:*.poll", "!video-upscales.poll"]).map((rule) => rule.id)).not.toContain(
      "video-upscales.poll",
    );
    // routes.other-areas has no pointer: those routes are not shown.
    expect(rulesNamed(catalogue, "routes.other-areas").map((rule) => rule.id)).toEqual(["routes.other-areas"]);
    expect(rulesNamed(catalogue, "route:routes.other-areas")).toEqual([]);
  });

  it("a job's route (its create, then its poll) keeps the rules under either operation", () => {
    const job = "POST /v1/images/i-a -> GET /v1/images/{id}";
    expect(rulesNamed(catalogue, "route:*.poll", job).map((rule) => rule.id)).toEqual(["images.poll"]);
    expect(rulesNamed(catalogue, "route:resources.poll.*", job).map((rule) => rule.id)).toContain(
      "resources.poll.images",
    );
    expect(rulesNamed(catalogue, "route:*.poll", "POST /v1/images/i-a").map((rule) => rule.id)).toEqual([]);
  });
});
