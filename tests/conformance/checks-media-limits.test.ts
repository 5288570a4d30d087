/**
 * The media-limits check (conformance/checks/media-limits.ts) run on a session of the test's own
 * against the sandbox, with VU-A and V-B implemented and media inputs declared here. The limits are
 * the description's `x-media` (specification, the models' input limits): VU-A's `video` at most
 * 20 s, 2560 px wide, 1440 px high and 100 MB; V-B's `reference_videos` (a list) from 2 to 15 s
 * and at most 50 MB, its `reference_audios` at most 15 s, and its reference videos plus the output
 * length at most 30 s together. Each field an input breaks a limit of is sent it and must be refused
 * with 400 and the error body; an input at a limit breaks none; an input within V-B's video limits
 * is sent with the shortest `length_seconds` that makes more than 30 s (and the same refusal).
 *
 * The sandbox refuses an input by the duration its URL's fragment names (`#duration=N`) alone, so
 * the inputs whose declared width, height or bytes break a limit name a duration it refuses too.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { mediaLimits } from "../../conformance/checks/media-limits.ts";
import type { MediaInput, TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { loadBundle } from "../../model/document.ts";
import { startSandbox, type SandboxHooks } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession } from "./support/check-session.ts";

// A description in which POST /v1/posts, which is no create, also takes a media field with a limit.
const variant = structuredClone(loadBundle());
const postsBody = (
  variant.paths["/v1/posts"]?.post?.requestBody as { content: Record<string, { schema: unknown }> } | undefined
)?.content["application/json"]?.schema as { properties: Record<string, unknown> } | undefined;
if (!postsBody) throw new Error("the description has no inline request body for POST /v1/posts");
postsBody.properties.clip = { type: "string", "x-media": { kind: "video", maxDurationSeconds: 20 } };
const contract = new Contract(variant);
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
const createOf = (label: string) => contract.operations.find((op) => op.create?.label === label) as ContractOperation;
const VU_A = createOf("VU-A");
const V_B = createOf("V-B");
const POSTS = contract.byPath("post", "/v1/posts") as ContractOperation;

const url = (name: string, seconds: number) => `https://media.example/${name}#duration=${seconds}`;
const INPUTS: MediaInput[] = [
  { kind: "video", url: url("clip-25s.mp4", 25), seconds: 25 },
  { kind: "video", url: url("clip-20s.mp4", 20), seconds: 20 },
  { kind: "video", url: url("clip-1s.mp4", 1), seconds: 1 },
  { kind: "video", url: url("clip-2s.mp4", 2), seconds: 2 },
  { kind: "video", url: url("clip-15s.mp4", 15), seconds: 15 },
  { kind: "video", url: url("wide.mp4", 99), width: 3000 },
  { kind: "video", url: url("high.mp4", 99), height: 1500 },
  { kind: "video", url: url("at-most.mp4", 5), width: 2560, height: 1440, megabytes: 50 },
  { kind: "video", url: url("heavy.mp4", 99), megabytes: 120 },
  { kind: "audio", url: url("voice-25s.mp3", 25), seconds: 25 },
];

/** What the check must send and name, written out from the limits above. */
const EXPECTED = [
  [VU_A, "refuses video of 25 s, past its most of 20 s", "video", url("clip-25s.mp4", 25)],
  [VU_A, "refuses video of 3000 px wide, past its most of 2560 px wide", "video", url("wide.mp4", 99)],
  [VU_A, "refuses video of 1500 px high, past its most of 1440 px high", "video", url("high.mp4", 99)],
  [VU_A, "refuses video of 120 MB, past its most of 100 MB", "video", url("heavy.mp4", 99)],
  [V_B, "refuses reference_videos of 25 s, past its most of 15 s", "reference_videos", [url("clip-25s.mp4", 25)]],
  [V_B, "refuses reference_videos of 20 s, past its most of 15 s", "reference_videos", [url("clip-20s.mp4", 20)]],
  [V_B, "refuses reference_videos of 1 s, past its least of 2 s", "reference_videos", [url("clip-1s.mp4", 1)]],
  [V_B, "refuses reference_videos of 120 MB, past its most of 50 MB", "reference_videos", [url("heavy.mp4", 99)]],
  [V_B, "refuses reference_audios of 25 s, past its most of 15 s", "reference_audios", [url("voice-25s.mp3", 25)]],
  // Within their own limits, V-B's reference videos with the shortest output length past 30 s together.
  [
    V_B,
    "refuses reference_videos of 2 s with length_seconds of 29, past their most of 30 s together",
    "reference_videos",
    [url("clip-2s.mp4", 2)],
  ],
  [
    V_B,
    "refuses reference_videos of 15 s with length_seconds of 16, past their most of 30 s together",
    "reference_videos",
    [url("clip-15s.mp4", 15)],
  ],
] as const;

const sessionOf = (target: string, config: Partial<TargetConfig> = {}): Session =>
  checkSession({
    contract,
    config: { ...declared, models: ["VU-A", "V-B"], mediaInputs: INPUTS, ...config },
    target,
    apiKey: declared.apiKey as string,
  });

interface MediaRun {
  readonly results: CheckResult[];
  /** The bodies the sandbox received, by route. */
  readonly bodies: Array<{ route: string; body: Record<string, unknown> }>;
}

async function mediaRun(hooks: SandboxHooks = {}): Promise<MediaRun> {
  const bodies: MediaRun["bodies"] = [];
  const sandbox = await startSandbox({
    config: fastSandboxConfig(defaults),
    hooks: {
      answer: (answer, call, state) => {
        if (call) bodies.push({ route: `POST ${call.op.path}`, body: call.body as Record<string, unknown> });
        return hooks.answer?.(answer, call, state) ?? answer;
      },
    },
  });
  try {
    const session = sessionOf(sandbox.url);
    await mediaLimits.run?.({ session, stage: async () => {}, status: () => {} });
    return { results: session.results.all, bodies };
  } finally {
    await sandbox.close();
  }
}

const sorted = <T extends { route: string; name: string }>(list: T[]) =>
  [...list].sort((a, b) => `${a.route} ${a.name}`.localeCompare(`${b.route} ${b.name}`));

describe("the media-limits check on the sandbox", () => {
  let honest: MediaRun;
  beforeAll(async () => {
    honest = await mediaRun();
  });

  it("sends each create field every declared input of its kind that breaks one of its limits, and passes the 400s", () => {
    expect(sorted(honest.results.map(({ route, name, outcome }) => ({ route, name, outcome })))).toEqual(
      sorted(EXPECTED.map(([op, name]) => ({ route: op.route, name, outcome: "pass" }))),
    );
  });

  it("sends the input in a request otherwise valid: a list field as a one-item list, another as the URL", () => {
    for (const [op, name, field, value] of EXPECTED) {
      const sent = honest.bodies.filter(
        (received) => received.route === op.route && JSON.stringify(received.body[field]) === JSON.stringify(value),
      );
      expect(sent, name).toHaveLength(1);
      expect(Object.keys(sent[0]?.body ?? {}).length, name).toBeGreaterThan(1);
    }
    expect(honest.bodies).toHaveLength(EXPECTED.length);
    expect(honest.bodies.map((received) => received.route)).not.toContain(POSTS.route);
    // The variant's field is there to be left alone: a route that is no create is not sent the inputs.
    expect(Object.keys(POSTS.requestSchema?.properties ?? {})).toContain("clip");
  });

  it("names each result by a template of its rules (VU-A's input limits, V-B's input plus output length)", () => {
    const templates = honest.results.map((result) => templateOf(mediaLimits, result.name));
    expect(templates.filter((template) => template === "refuses {field} of {measured}, past its {limit}")).toHaveLength(
      EXPECTED.length - 2,
    );
    expect(
      templates.filter(
        (template) =>
          template === "refuses {field} of {measured} with {other} of {value}, past their most of {limit} together",
      ),
    ).toHaveLength(2);
    expect(mediaLimits.rules).toEqual({
      "refuses {field} of {measured}, past its {limit}": ["route:video-upscales.input-limits"],
      "refuses {field} of {measured} with {other} of {value}, past their most of {limit} together": [
        "route:videos.v-b.length-limits",
      ],
    });
  });
});

describe("the media-limits check fails a field not refused with 400 and the error body", () => {
  let results: Record<string, CheckResult>;
  beforeAll(async () => {
    const run = await mediaRun({
      answer: (answer, call) => {
        if (answer.status !== 400) return answer;
        // VU-A answers 422; V-B refuses with 400 but without the error body.
        if (call?.op.path === VU_A.path) return { ...answer, status: 422 };
        if (call?.op.path === V_B.path && JSON.stringify(answer.body).includes("plus body.length_seconds"))
          return { ...answer, status: 200 };
        if (call?.op.path === V_B.path) return { ...answer, body: { message: "too long" } };
        return answer;
      },
    });
    results = Object.fromEntries(run.results.map((result) => [`${result.route} ${result.name}`, result]));
  });

  it("fails another status, naming the field, what was measured and the input", () => {
    expect(results[`${VU_A.route} refuses video of 25 s, past its most of 20 s`]).toMatchObject({
      outcome: "fail",
      detail: `answered 422, not 400, to video of 25 s (${url("clip-25s.mp4", 25)})`,
    });
    expect(results[`${VU_A.route} refuses video of 120 MB, past its most of 100 MB`]).toMatchObject({
      outcome: "fail",
      detail: `answered 422, not 400, to video of 120 MB (${url("heavy.mp4", 99)})`,
    });
  });

  it("fails an input and output length past their total that is not refused, naming both", () => {
    expect(
      results[
        `${V_B.route} refuses reference_videos of 2 s with length_seconds of 29, past their most of 30 s together`
      ],
    ).toMatchObject({
      outcome: "fail",
      detail: `answered 200, not 400, to reference_videos of 2 s with length_seconds of 29 (${url("clip-2s.mp4", 2)})`,
    });
  });

  it("fails a 400 whose body is not the description's error body", () => {
    const result = results[`${V_B.route} refuses reference_videos of 1 s, past its least of 2 s`];
    expect(result?.outcome).toBe("fail");
    expect(result?.detail).toContain("body of 400 does not match its schema");
  });
});

describe("what the media-limits check needs", () => {
  it("needs mediaInputs declared", () => {
    expect(mediaLimits.blockedBy?.(sessionOf("http://127.0.0.1:9", { mediaInputs: undefined }))).toBe(
      "not declared: media inputs the target can fetch, with what it measures of them (mediaInputs)",
    );
    expect(mediaLimits.blockedBy?.(sessionOf("http://127.0.0.1:9"))).toBeNull();
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`media-limits\` | ${mediaLimits.summary} |`);
  });
});
