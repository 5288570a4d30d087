/**
 * The description read as a contract (contract/contract.ts, contract/bodies/media-forms.ts,
 * contract/retry-after.ts): each operation's area, create and poll facts and parameters; the
 * negative bodies computed once; a body valid when the schema takes it and its media fields are in
 * forms they take; request paths filled from values or the parameters' examples; a media value's
 * form problem named.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Contract, type ContractOperation, type Parameter, requestPath } from "../../contract/contract.ts";
import { mediaFormProblem, mediaFormsOf } from "../../contract/bodies/media-forms.ts";
import { retryAfterForText } from "../../contract/retry-after.ts";
import type { JsonSchema } from "../../model/document.ts";

let contract: Contract;
// Built once for the file's tests (a beforeAll, so that each test is credited with building it).
beforeAll(() => {
  contract = new Contract();
});

/** An operation of the contract with other parameters or another request schema, as a variant description would give. */
const variant = (changes: Partial<ContractOperation>): ContractOperation => ({
  ...contract.operations.find((op) => op.create)!,
  ...changes,
});

describe("Contract's operations", () => {
  it("name each operation's area, its create facts on create routes and its polled area on poll routes", () => {
    for (const op of contract.operations) {
      const area = contract.model.areas.find((candidate) => candidate.id === op.facts.areaId);
      expect(op.area, op.route).toBe(area?.segment ?? op.path.split("/")[2]);
      expect(op.path.startsWith(`/v1/${op.area}`), op.route).toBe(true);
      expect(op.create !== undefined, op.route).toBe(op.facts.kind === "create");
      if (op.create) expect(op.create.path, op.route).toBe(op.path);
      expect(op.polls, op.route).toBe(op.facts.kind === "poll" ? area : undefined);
      expect(op.route).toBe(`${op.method.toUpperCase()} ${op.path}`);
      for (const parameter of op.parameters) {
        expect(typeof parameter.name, op.route).toBe("string");
        expect(parameter, op.route).not.toHaveProperty("$ref");
      }
    }
    expect(contract.operations.some((op) => op.polls)).toBe(true);
    expect(contract.operations.some((op) => op.parameters.length === 0)).toBe(true);
  });

  it("find an operation by method and path, and a create's poll operation", () => {
    const create = contract.operations.find((op) => op.create)!;
    expect(contract.byPath("post", create.path)).toBe(create);
    expect(contract.byPath("get", create.path)).toBeUndefined();
    expect(contract.pollOf(create)?.polls?.id).toBe(create.create?.areaId);
  });

  it("compute an operation's negative bodies once, and none without a request schema", () => {
    const create = contract.operations.find((op) => op.create?.label === "I-B")!;
    expect(contract.negativeCases(create)).toBe(contract.negativeCases(create));
    const poll = contract.operations.find((op) => op.polls)!;
    expect(contract.negativeCases(poll)).toEqual({ cases: [], uncovered: [] });
  });

  it("keep the same contract when no rate is supplied", () => {
    expect(contract.withRates({})).toBe(contract);
  });
});

describe("Contract.validBody", () => {
  it("takes any body where the operation has no request schema", () => {
    const poll = contract.operations.find((op) => op.polls)!;
    expect(poll.requestSchema).toBeUndefined();
    expect(contract.validBody(poll, { anything: 1 })).toBe(true);
  });

  it("refuses a media value in a form its field does not take, even where the schema alone would take it", () => {
    const op = variant({
      requestSchema: {
        type: "object",
        properties: { video: { type: "string", "x-media": { kind: "video", forms: ["public-url"] } } },
      },
    });
    expect(contract.validBody(op, { video: "https://files.example.com/v.mp4" })).toBe(true);
    expect(contract.validBody(op, { video: "data:video/mp4;base64,AAAA" })).toBe(false);
    expect(contract.validBody(op, { video: 12 })).toBe(false);
  });
});

describe("requestPath", () => {
  const parameters: Parameter[] = [
    { name: "id", in: "path", required: true, example: "job 1" },
    { name: "cursor", in: "query", required: true, examples: { first: { value: "c1" } } },
    { name: "limit", in: "query", required: false, example: 10 },
    { name: "since", in: "query", required: true },
    { name: "X-Trace", in: "header", required: true, example: "t1" },
  ];
  const op = (): ContractOperation => variant({ path: "/v1/images/{id}", parameters });

  it("fills path parameters from the values given, else their example, and adds the required query parameters that have one", () => {
    expect(requestPath(contract, op())).toBe("/v1/images/job%201?cursor=c1");
    expect(requestPath(contract, op(), { id: "j2", cursor: "c2", limit: 5, since: "2026", "X-Trace": "t2" })).toBe(
      "/v1/images/j2?cursor=c2&since=2026",
    );
    expect(requestPath(contract, variant({ path: "/v1/images/{id}", parameters: parameters.slice(0, 1) }))).toBe(
      "/v1/images/job%201",
    );
  });

  it("takes a parameter's example before its first named example", () => {
    expect(contract.parameterExample({ name: "a", in: "query", example: "x", examples: { y: { value: "y" } } })).toBe(
      "x",
    );
    expect(contract.parameterExample({ name: "a", in: "query", examples: { y: { value: "y" } } })).toBe("y");
    expect(contract.parameterExample({ name: "a", in: "query" })).toBeUndefined();
  });
});

describe("media forms", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      video: { type: "string", "x-media": { kind: "video", forms: ["public-url", "uploaded-file-url"] } },
      images: { type: "array", items: { type: "string" }, "x-media": { kind: "image", forms: ["data-uri"] } },
      audio: { type: "string", "x-media": { kind: "audio" } },
      prompt: { type: "string" },
    },
  };

  it("read a property's x-media, and nothing where it carries none or names no kind", () => {
    expect(mediaFormsOf((schema.properties as Record<string, JsonSchema>).audio)).toEqual({ kind: "audio" });
    expect(mediaFormsOf({ type: "string" })).toBeUndefined();
    expect(mediaFormsOf({ type: "string", "x-media": { forms: ["data-uri"] } })).toBeUndefined();
    expect(mediaFormsOf({ type: "string", "x-media": "video" })).toBeUndefined();
  });

  it("name a media value in a form its field does not take, each item of a list, and nothing for fields whose forms are not stated", () => {
    expect(mediaFormProblem(schema, { video: "https://files.example.com/v.mp4" })).toBeNull();
    expect(mediaFormProblem(schema, { video: "data:video/mp4;base64,AAAA" })).toBe(
      "video: takes public-url or uploaded-file-url, not a data-uri",
    );
    expect(mediaFormProblem(schema, { images: ["data:image/png;base64,AAAA", "https://a/1.png"] })).toBe(
      "images: takes data-uri, not a public-url or uploaded-file-url",
    );
    // Not a string: the schema's type refuses it, not its form.
    expect(mediaFormProblem(schema, { images: [12, "data:image/png;base64,AAAA"] })).toBeNull();
    expect(mediaFormProblem(schema, { audio: "SUQzBAAAAAAAAA==", prompt: "data:text/plain,hi" })).toBeNull();
    expect(mediaFormProblem(schema, "not a body")).toBeNull();
  });
});

describe("retryAfterForText", () => {
  it("matches no 429 variant for a text that is not JSON", () => {
    expect(retryAfterForText(contract, "not json")).toEqual({ matching: [], sends: undefined });
  });
});
