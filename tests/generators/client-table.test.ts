/**
 * The generated client's route table (generators/client.ts): what it tells the runtime about the
 * error bodies it branches on, and the models it refuses to serve rather than generate a client that
 * would misbehave. Which other operations it may resend is tests/client/operations.test.ts's, on the
 * committed client, which tests/generators/generate-all.test.ts holds equal to what the generator makes.
 */
import { describe, expect, it } from "vitest";
import { deriveRouteTable } from "../../generators/client.ts";
import { model } from "../support/description.ts";
import { withVariant, withVariants } from "./models.ts";

describe("the generated client's error shapes", () => {
  it("name the specification's rate-limited code and the cooldown's seconds field", () => {
    // Specification, errors: a rate-limited 429 has error.code rate_limited; the cooldown's body
    // carries retry_after_seconds.
    const { rateLimitedCode, cooldownField } = deriveRouteTable(model).errors;
    expect({ rateLimitedCode, cooldownField }).toEqual({
      rateLimitedCode: "rate_limited",
      cooldownField: "retry_after_seconds",
    });
  });

  it("are found by their condition, in whatever order the description lists the 429 variants", () => {
    const reversed = withVariants((variants) => [...variants].reverse());
    expect(deriveRouteTable(reversed).errors).toEqual(deriveRouteTable(model).errors);
  });

  it("are refused where the description fixes no rate-limited code or no cooldown seconds field, naming the gap", () => {
    expect(() => deriveRouteTable(withVariant("rate-limited", { code: null }))).toThrow(
      "generators/client.ts: the rate-limited 429 variant fixes no error.code",
    );
    expect(() => deriveRouteTable(withVariant("cooldown", { secondsField: null }))).toThrow(
      "generators/client.ts: the cooldown 429 variant carries no seconds field",
    );
  });
});

describe("the generated client's other operations", () => {
  it.each([
    ["a member of the client's own", "wait"],
    ["an area's", model.areas[0]!.id],
  ])("are refused where an operationId would shadow %s name", (_what, name) => {
    const operations = model.operations.map((op) =>
      op.operationId === "getAccountCredits" ? { ...op, operationId: name } : op,
    );
    expect(() => deriveRouteTable({ ...model, operations })).toThrow(
      `generators/client.ts: operationId ${name} would shadow the client member of the same name`,
    );
  });
});
