/**
 * The Prism mock reads the description as any tool would, standard keywords only: Prism itself
 * (on its own port, not through the mock's front, which also reads x-media) refuses every request
 * body the conformance suite sends as one a target must refuse, static negatives and near misses
 * alike, and answers every documented request example. A plain Ajv refuses the static negatives too
 * (the near misses in plain-validators.test.ts, within npm test's time).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { freePort } from "../../http-server/listen.ts";
import { startMock, type RunningPrism } from "../../mock/prism.ts";
import { doc } from "../support/description.ts";
import { negativesOf, plainValidation, type RefusedBody } from "../support/plain-validation.ts";

const contract = new Contract(doc);
const withBodies = contract.operations.filter((op) => op.requestSchema);
let mock: RunningPrism;
let prism: string;

beforeAll(async () => {
  const prismPort = await freePort();
  mock = await startMock({ snapshot: contract.doc, prismPort });
  prism = `http://127.0.0.1:${prismPort}`;
}, 60_000);
afterAll(async () => {
  await mock?.stop();
});

/** Prism's status for `body` sent to the operation, a few at a time. */
async function statuses(bodies: readonly { op: RefusedBody["op"]; body: unknown }[]): Promise<number[]> {
  const answers: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < bodies.length) {
      const index = next++;
      const { op, body } = bodies[index]!;
      const answer = await fetch(`${prism}${op.path}`, {
        method: op.method.toUpperCase(),
        headers: { authorization: "Bearer any-key", "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      await answer.arrayBuffer();
      answers[index] = answer.status;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return answers;
}

describe("the Prism mock, and a plain validator, on the description alone", () => {
  it("Prism refuses every body the suite sends as one to refuse, and a plain Ajv refuses the static negatives", {
    timeout: 600_000,
  }, async () => {
    const negatives = withBodies.flatMap((op) => negativesOf(contract, op, true));
    expect(negatives.some((negative) => negative.kind === "near miss other-form")).toBe(true);
    const request = plainValidation(doc).request;
    expect(
      negatives
        .filter((negative) => negative.kind.startsWith("static") && request(negative.op)(negative.body))
        .map((negative) => `${negative.op.route} ${negative.rule}`),
    ).toEqual([]);
    const answered = await statuses(negatives);
    expect(
      negatives
        .map((negative, index) => ({ ...negative, status: answered[index]! }))
        .filter(({ status }) => status < 400 || status >= 500)
        .map(({ op, kind, status, rule }) => `${op.route} ${kind} (${status}): ${rule}`),
    ).toEqual([]);
  });

  it("Prism answers every documented request example with a 2xx", { timeout: 120_000 }, async () => {
    const examples = withBodies.flatMap((op) => op.requestExamples.map((example) => ({ op, body: example.value })));
    const answered = await statuses(examples);
    expect(
      examples
        .map((example, index) => ({ ...example, status: answered[index]! }))
        .filter(({ status }) => status < 200 || status >= 300)
        .map(({ op, status }) => `${op.route}: ${status}`),
    ).toEqual([]);
  });
});
