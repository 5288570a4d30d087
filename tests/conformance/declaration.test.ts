import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DeclarationError, TARGET_DEFAULTS, readTargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../conformance/contract.ts";

const contract = new Contract();
const work = mkdtempSync(join(tmpdir(), "conformance-declaration-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const file = (name: string, text: string): string => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

describe("the target's declaration (CONFORMANCE_CONFIG and CONFORMANCE_AREAS / _MODELS / _SKIP)", () => {
  it("reads areas, models and groups the description has, the environment over the file", () => {
    const config = readTargetConfig(
      { CONFORMANCE_CONFIG: file("ok.json", JSON.stringify({ areas: ["videos"], poll: { maxPolls: 3 } })), CONFORMANCE_AREAS: "images", CONFORMANCE_MODELS: "I-A" },
      TARGET_DEFAULTS,
      contract,
    );
    expect(config.areas).toEqual(["images"]);
    expect(config.models).toEqual(["I-A"]);
    expect(config.poll).toEqual({ ...TARGET_DEFAULTS.poll, maxPolls: 3 });
  });

  // A misspelt name would otherwise select nothing, skip every check and pass.
  const rejected: Array<[string, NodeJS.ProcessEnv, RegExp]> = [
    ["an unknown area", { CONFORMANCE_AREAS: "image" }, /^areas \(CONFORMANCE_AREAS\): unknown "image"; the description has: images,/],
    ["an unknown model label", { CONFORMANCE_MODELS: "I-A,i-b" }, /^models \(CONFORMANCE_MODELS\): unknown "i-b"/],
    ["an unknown check group", { CONFORMANCE_SKIP: "lifecycles" }, /^skipGroups \(CONFORMANCE_SKIP\): unknown "lifecycles"/],
    ["a file that is not JSON", { CONFORMANCE_CONFIG: file("broken.json", "{areas") }, /^CONFORMANCE_CONFIG .*broken\.json: /],
    ["a list given as a string", { CONFORMANCE_CONFIG: file("string.json", '{"areas": "images"}') }, /string\.json: areas must be an array of strings$/],
    ["a flag given as a string", { CONFORMANCE_CONFIG: file("flag.json", '{"stateful": "yes"}') }, /flag\.json: stateful must be true or false$/],
    ["a negative poll count", { CONFORMANCE_CONFIG: file("poll.json", '{"poll": {"maxPolls": -1}}') }, /poll\.json: poll\.maxPolls must be a non-negative integer$/],
    ["an unknown setting", { CONFORMANCE_CONFIG: file("extra.json", '{"area": ["images"]}') }, /extra\.json: area is not a setting \(settings: /],
    ["an unknown file area", { CONFORMANCE_CONFIG: file("area.json", '{"areas": ["imagez"]}') }, /^areas \(CONFORMANCE_AREAS\): unknown "imagez"/],
  ];
  for (const [what, env, message] of rejected) {
    it(`rejects ${what}, naming the field and the rule`, () => {
      let thrown: unknown;
      try {
        readTargetConfig(env, TARGET_DEFAULTS, contract);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DeclarationError);
      expect((thrown as Error).message).toMatch(message);
    });
  }
});
