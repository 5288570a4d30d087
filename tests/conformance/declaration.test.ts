import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS, CHECKS } from "../../conformance/checks/index.ts";
import {
  DECLARATION_FIELDS,
  DeclarationError,
  MOCK_CONFIG,
  TARGET_DEFAULTS,
  declarationTable,
  readTargetConfig,
} from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";

const contract = new Contract();
const work = mkdtempSync(join(tmpdir(), "conformance-declaration-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const file = (name: string, text: string): string => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

const read = (env: NodeJS.ProcessEnv) => readTargetConfig(env, TARGET_DEFAULTS, contract, CHECK_GROUPS);

describe("the target's declaration (CONFORMANCE_CONFIG and CONFORMANCE_AREAS / _MODELS / _SKIP)", () => {
  it("reads areas, models and groups the description has, the environment over the file, poll settings over the defaults", () => {
    const config = read({
      CONFORMANCE_CONFIG: file("ok.json", JSON.stringify({ areas: ["videos"], poll: { timeoutSeconds: 3 } })),
      CONFORMANCE_AREAS: "images",
      CONFORMANCE_MODELS: "I-A",
    });
    expect(config.areas).toEqual(["images"]);
    expect(config.models).toEqual(["I-A"]);
    expect(config.poll).toEqual({ ...TARGET_DEFAULTS.poll, timeoutSeconds: 3 });
  });

  it("takes a field from the file, over it its variable, over that its flag", () => {
    const declared = file(
      "limits.json",
      JSON.stringify({ timeoutSeconds: 100, budgetCredits: 50, maxAnswerBytes: 2048 }),
    );
    const fromFile = read({ CONFORMANCE_CONFIG: declared });
    expect([fromFile.timeoutSeconds, fromFile.budgetCredits, fromFile.maxAnswerBytes]).toEqual([100, 50, 2048]);
    const fromEnv = read({
      CONFORMANCE_CONFIG: declared,
      CONFORMANCE_TIMEOUT: "200",
      CONFORMANCE_MAX_ANSWER_BYTES: "4096",
      CONFORMANCE_API_KEY: "k-env",
    });
    expect([fromEnv.timeoutSeconds, fromEnv.budgetCredits, fromEnv.maxAnswerBytes, fromEnv.apiKey]).toEqual([
      200,
      50,
      4096,
      "k-env",
    ]);
    const fromFlags = readTargetConfig(
      { CONFORMANCE_CONFIG: declared, CONFORMANCE_TIMEOUT: "200" },
      TARGET_DEFAULTS,
      contract,
      CHECK_GROUPS,
      undefined,
      { timeout: "300", "request-timeout": "7", budget: "9" },
    );
    expect([fromFlags.timeoutSeconds, fromFlags.requestTimeoutSeconds, fromFlags.budgetCredits]).toEqual([300, 7, 9]);
    expect(() => readTargetConfig({}, TARGET_DEFAULTS, contract, CHECK_GROUPS, undefined, { timeout: "soon" })).toThrow(
      new DeclarationError('--timeout (CONFORMANCE_TIMEOUT): "soon" is not a positive number'),
    );
    expect(() => read({ CONFORMANCE_MAX_ANSWER_BYTES: "1.5" })).toThrow(
      /^CONFORMANCE_MAX_ANSWER_BYTES: "1.5" is not a whole number from 1/,
    );
  });

  it("has defaults against a target and against the mock from the same list", () => {
    expect([
      TARGET_DEFAULTS.stateful,
      TARGET_DEFAULTS.checksApiKey,
      TARGET_DEFAULTS.parallelRequests,
      TARGET_DEFAULTS.timeoutSeconds,
      TARGET_DEFAULTS.createExamples,
    ]).toEqual([true, true, 4, 1800, "one"]);
    expect([
      MOCK_CONFIG.stateful,
      MOCK_CONFIG.checksApiKey,
      MOCK_CONFIG.parallelRequests,
      MOCK_CONFIG.timeoutSeconds,
      MOCK_CONFIG.createExamples,
    ]).toEqual([false, false, 16, 120, "all"]);
    expect(TARGET_DEFAULTS.poll).toEqual({ intervalMs: null, timeoutSeconds: 900, stablePolls: 1 });
    expect(MOCK_CONFIG.poll).toEqual({ intervalMs: 0, timeoutSeconds: 60, stablePolls: 0 });
    expect([
      TARGET_DEFAULTS.budgetCredits,
      TARGET_DEFAULTS.requestTimeoutSeconds,
      TARGET_DEFAULTS.maxAnswerBytes,
    ]).toEqual([null, 60, 8 * 1024 * 1024]);
    expect([MOCK_CONFIG.requestTimeoutSeconds, MOCK_CONFIG.maxAnswerBytes]).toEqual([60, 8 * 1024 * 1024]);
    expect("concurrency" in TARGET_DEFAULTS || "apiKey" in TARGET_DEFAULTS || "concurrency" in MOCK_CONFIG).toBe(false);
  });

  it("reads the sandbox's own declaration (conformance/targets/sandbox.json) without a complaint", () => {
    const config = read({ CONFORMANCE_CONFIG: "conformance/targets/sandbox.json" });
    expect(config.freePlanKey).toBe("sandbox-free-key");
    expect(config.outcomeMarkers.failed).toMatch(/failed/);
    // `npm run sandbox` pauses the family for the description's ten minutes, so its declaration
    // shortens nothing: the cooldown check expects the description's pause and does not wait it out.
    const sandbox = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { limits?: unknown };
    expect(sandbox.limits).toBeUndefined();
    expect(config.cooldownPauseSeconds).toBeUndefined();
  });

  it("reads a declared cooldown pause", () => {
    expect(read({ CONFORMANCE_CONFIG: file("pause.json", '{"cooldownPauseSeconds": 3}') }).cooldownPauseSeconds).toBe(
      3,
    );
    expect(read({}).cooldownPauseSeconds).toBeUndefined();
  });

  // A misspelt name would otherwise select nothing, skip every check and pass.
  const rejected: Array<[string, NodeJS.ProcessEnv, RegExp]> = [
    [
      "an unknown area",
      { CONFORMANCE_AREAS: "image" },
      /^areas \(CONFORMANCE_AREAS\): unknown "image"; the description has: images,/,
    ],
    ["an unknown model label", { CONFORMANCE_MODELS: "I-A,i-b" }, /^models \(CONFORMANCE_MODELS\): unknown "i-b"/],
    [
      "an unknown check group",
      { CONFORMANCE_SKIP: "lifecycles" },
      /^skipGroups \(CONFORMANCE_SKIP\): unknown "lifecycles"/,
    ],
    [
      "a file that is not JSON",
      { CONFORMANCE_CONFIG: file("broken.json", "{areas") },
      /^CONFORMANCE_CONFIG [^ ]*broken\.json:1:2: not valid JSON: expected a "quoted" key, got "a"$/,
    ],
    [
      "a list given as a string",
      { CONFORMANCE_CONFIG: file("string.json", '{"areas": "images"}') },
      /string\.json: areas must be an array of strings$/,
    ],
    [
      "a flag given as a string",
      { CONFORMANCE_CONFIG: file("flag.json", '{"stateful": "yes"}') },
      /flag\.json: stateful must be true or false$/,
    ],
    [
      "a negative poll count",
      { CONFORMANCE_CONFIG: file("poll.json", '{"poll": {"stablePolls": -1}}') },
      /poll\.json: poll\.stablePolls must be an integer of at least 0$/,
    ],
    [
      "an unknown poll setting",
      { CONFORMANCE_CONFIG: file("maxpolls.json", '{"poll": {"maxPolls": 3}}') },
      /maxpolls\.json: poll has no setting maxPolls \(settings: intervalMs, timeoutSeconds, stablePolls\)$/,
    ],
    [
      "an unknown setting",
      { CONFORMANCE_CONFIG: file("extra.json", '{"area": ["images"]}') },
      /extra\.json: area is not a setting \(settings: /,
    ],
    [
      "an unknown file area",
      { CONFORMANCE_CONFIG: file("area.json", '{"areas": ["imagez"]}') },
      /^areas \(CONFORMANCE_AREAS\): unknown "imagez"/,
    ],
    [
      "a createExamples value it does not know",
      { CONFORMANCE_CONFIG: file("examples.json", '{"createExamples": "some"}') },
      /examples\.json: createExamples must be one of "one", "all"$/,
    ],
    [
      "a retired model the description lacks",
      { CONFORMANCE_CONFIG: file("retired.json", '{"retiredModel": {"model": "I-Z"}}') },
      /^retiredModel\.model: unknown "I-Z"/,
    ],
    [
      "a retired model without its label",
      { CONFORMANCE_CONFIG: file("retired-label.json", '{"retiredModel": {"apiKey": "k"}}') },
      /retired-label\.json: retiredModel must have model$/,
    ],
    [
      "a moderation marker with no place for the reason",
      { CONFORMANCE_CONFIG: file("marker.json", '{"outcomeMarkers": {"moderation": "[blocked]"}}') },
      /marker\.json: outcomeMarkers\.moderation must contain \{reason\}/,
    ],
    [
      "a cooldown pause of no seconds",
      { CONFORMANCE_CONFIG: file("pause-zero.json", '{"cooldownPauseSeconds": 0}') },
      /pause-zero\.json: cooldownPauseSeconds must be an integer of at least 1$/,
    ],
    [
      "a cooldown pause in fractions of a second",
      { CONFORMANCE_CONFIG: file("pause-fraction.json", '{"cooldownPauseSeconds": 1.5}') },
      /pause-fraction\.json: cooldownPauseSeconds must be an integer of at least 1$/,
    ],
    [
      "a cooldown pause given as a string",
      { CONFORMANCE_CONFIG: file("pause-text.json", '{"cooldownPauseSeconds": "2"}') },
      /pause-text\.json: cooldownPauseSeconds must be an integer of at least 1$/,
    ],
    [
      "a plan discount past 100 %",
      { CONFORMANCE_CONFIG: file("discount.json", '{"planDiscounts": {"apiKey": "k", "models": {"I-A": 120}}}') },
      /discount\.json: planDiscounts\.models must map model labels to percentages from 0 to 100$/,
    ],
    [
      "a plan discount of a model the description lacks",
      { CONFORMANCE_CONFIG: file("discount-model.json", '{"planDiscounts": {"apiKey": "k", "models": {"I-Z": 10}}}') },
      /^planDiscounts\.models: unknown "I-Z"/,
    ],
    [
      "rates of a model the description lacks",
      { CONFORMANCE_CONFIG: file("rates-model.json", '{"rates": {"V-Z": 10}}') },
      /^rates: unknown "V-Z"/,
    ],
    [
      "rates of a model whose rates are all shown",
      { CONFORMANCE_CONFIG: file("rates-shown.json", '{"rates": {"I-A": 10}}') },
      /^rates\.I-A: must be a route whose rate is not shown \(\/v1\/audios\/a-a, \/v1\/videos\/v-b, \/v1\/videos\/v-c\)$/,
    ],
    [
      "a rate keyed by a resolution the model does not take",
      { CONFORMANCE_CONFIG: file("rates-key.json", '{"rates": {"V-B": {"4k": 10}}}') },
      /^rates\.V-B\.4k: resolution must be one of 480p, 720p, 1080p$/,
    ],
    [
      "a table where the rate differs by nothing",
      { CONFORMANCE_CONFIG: file("rates-table.json", '{"rates": {"A-A": {"720p": 10}}}') },
      /^rates\.A-A: must be a number of credits, at least 0$/,
    ],
    [
      "an upscale in a mode the description does not name",
      {
        CONFORMANCE_CONFIG: file(
          "upscale-mode.json",
          '{"upscaleRequests": [{"body": {"video": "v"}, "mode": "fast", "seconds": 4}]}',
        ),
      },
      /^upscaleRequests\[0\]\.mode: unknown "fast"; the description has: precise, creative$/,
    ],
    [
      "an upscale without its input's seconds",
      { CONFORMANCE_CONFIG: file("upscale-seconds.json", '{"upscaleRequests": [{"body": {}, "mode": "precise"}]}') },
      /upscale-seconds\.json: upscaleRequests\[0\] must have seconds$/,
    ],
    [
      "a free pool without its size",
      { CONFORMANCE_CONFIG: file("pool.json", '{"freePool": {"apiKey": "k", "models": ["I-A"]}}') },
      /pool\.json: freePool must have generations$/,
    ],
    [
      "a free pool of a model the description lacks",
      {
        CONFORMANCE_CONFIG: file(
          "pool-model.json",
          '{"freePool": {"apiKey": "k", "generations": 2, "models": ["I-Z"]}}',
        ),
      },
      /^freePool\.models: unknown "I-Z"/,
    ],
    [
      "a quote request with no place for the request to quote",
      { CONFORMANCE_CONFIG: file("cost.json", '{"costRequest": {"model": "{model}"}}') },
      /cost\.json: costRequest must hold "\{model\}" and "\{request\}" as values/,
    ],
    [
      "an outcome it has no marker for",
      { CONFORMANCE_CONFIG: file("outcome.json", '{"outcomeMarkers": {"succeeded": "x"}}') },
      /outcome\.json: outcomeMarkers has no setting succeeded/,
    ],
  ];
  for (const [what, env, message] of rejected) {
    it(`rejects ${what}, naming the field and the rule`, () => {
      let thrown: unknown;
      try {
        read(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DeclarationError);
      expect((thrown as Error).message).toMatch(message);
    });
  }
});

describe("conformance/README.md", () => {
  const readme = readFileSync("conformance/README.md", "utf8");

  it("has the declaration's table as config.ts renders it from its one list of fields", () => {
    expect(readme).toContain(`\n${declarationTable()}\n`);
    for (const field of DECLARATION_FIELDS)
      expect(readme, field.field).toContain(`| \`${field.field}\` | ${field.type} | ${field.default} |`);
  });

  it("names every registered check group", () => {
    for (const check of CHECKS) expect(readme, check.group).toContain(`| \`${check.group}\` |`);
  });
});

describe("conformance/README.md's table of check groups", () => {
  it("has each registered check's row, its summary as --help prints it, in the registry's order", () => {
    const readme = readFileSync("conformance/README.md", "utf8");
    const table = readme.slice(readme.indexOf("| group | what it checks |\n|---|---|\n"));
    const rows = table.split("\n").slice(2);
    expect(rows.slice(0, rows.indexOf(""))).toEqual(CHECKS.map((check) => `| \`${check.group}\` | ${check.summary} |`));
  });
});
