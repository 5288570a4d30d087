/**
 * The faults generated from the rule catalogue (faults/fields.ts) cover every rule the
 * request-validation check names through an operation (a body field, a constraint, a further
 * model's body): each has its fault, caught by results on its own route, or is one of the few no
 * request can show broken, with the reason. A rule added to the catalogue and named by the check
 * gets a fault, or this fails naming it.
 */
import { describe, expect, it } from "vitest";
import { CHECKS } from "../../conformance/checks/index.ts";
import { requestValidation } from "../../conformance/checks/request-validation.ts";
import { checksByRule, rulesNamed } from "../../conformance/rules.ts";
import { Contract } from "../../contract/contract.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { readCatalogue } from "../../spec/catalogue.ts";
import { pathOf } from "../client/labels.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { FIELD_CATCHES, FIELD_FAULTS, UNCATCHABLE_FIELD_RULES } from "./faults/fields.ts";
import { FAULTS, hooksFor } from "./faults/registry.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const catalogue = readCatalogue();
const declared = sandboxDeclaration(new Contract());
const REJECTS = "request-validation: rejects a body breaking {constraint}";
/** The rules the check names for every operation alike (not through one): the hand-written faults prove those. */
const sharedRules = new Set(
  Object.values(requestValidation.rules ?? {})
    .flat()
    .filter((reference) => !reference.startsWith("route:"))
    .flatMap((reference) => rulesNamed(catalogue, reference).map((rule) => rule.id)),
);
const ofOperations = [...checksByRule(CHECKS, catalogue)]
  .filter(([id, checks]) => checks.includes(REJECTS) && !sharedRules.has(id))
  .map(([id]) => id);

describe("the faults generated from the rule catalogue", () => {
  it("give every rule the request-validation check names through an operation a fault, or say why none", () => {
    expect(ofOperations.length).toBeGreaterThan(100);
    const lacking = ofOperations.filter((id) => !(`field:${id}` in FIELD_FAULTS) && !UNCATCHABLE_FIELD_RULES.has(id));
    expect(lacking).toEqual([]);
    expect(Object.keys(FIELD_FAULTS).every((name) => name in FAULTS)).toBe(true);
  });

  it("leave no rule without a fault, the sandbox declaring that it takes requests as the description shapes them", () => {
    // describedShapes: a body breaking a rule on an implied name, an unshown path or an unlisted field must be refused.
    expect(declared.describedShapes).toBe(true);
    expect([...UNCATCHABLE_FIELD_RULES].map(([id, why]) => `${id}: ${why}`)).toEqual([]);
  });

  it("name each fault after the one rule it breaks, caught by results on that rule's operation", () => {
    const problems = Object.entries(FIELD_FAULTS).flatMap(([name, fault]) => {
      const caught = FIELD_CATCHES[name as keyof typeof FIELD_CATCHES];
      return [
        ...(fault.breaks.length === 1 && name === `field:${fault.breaks[0]}`
          ? []
          : [`${name}: breaks ${fault.breaks}`]),
        ...(caught && caught.results.length > 0 ? [] : [`${name}: no result must fail`]),
        ...(caught?.results.every((result) => result.startsWith("rejects a body breaking ")) === false
          ? [`${name}: a result that is no negative case`]
          : []),
      ];
    });
    expect(problems).toEqual([]);
  });

  it("loosen their own operation only: with i-a's aspect_ratio unchecked, i-a takes any ratio and i-b still refuses one", async () => {
    const sandbox = await startSandbox({
      config: fastSandboxConfig(sandboxDefaults(), 0.1),
      hooks: hooksFor(["field:images.i-a.body.aspect-ratio"]),
    });
    try {
      const statusOf = async (path: string, body: object): Promise<number> =>
        (
          await fetch(`${sandbox.url}${path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${declared.apiKey}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          })
        ).status;
      const unlisted = { prompt: "A lighthouse", aspect_ratio: "7:5" };
      expect(await statusOf(pathOf("I-A"), unlisted)).toBe(200);
      expect(await statusOf(pathOf("I-B"), { ...unlisted, image: "https://files.example.com/a.png" })).toBe(400);
      expect(await statusOf(pathOf("I-A"), { ...unlisted, aspect_ratio: "1:1", size: "7K" })).toBe(400);
    } finally {
      await sandbox.close();
    }
  });
});
