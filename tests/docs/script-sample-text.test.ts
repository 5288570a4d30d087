/**
 * The Python and JavaScript (fetch) samples as text (docs-src/script-samples.ts): a request body as
 * a Python literal (True, False, None, indented a level at a time), the call with the example's
 * method, path and body, and for a create route whose answer names its job, the poll of the area's
 * route with the job id in its path, at the area's interval in each language's unit, until a status
 * of the terminal list. Whether the programs run is script-samples.test.ts's (and the e2e run's).
 */
import { describe, expect, it } from "vitest";
import type { JobFollowing } from "../../docs-src/browser/console-data.ts";
import type { RequestExample } from "../../docs-src/request-example.ts";
import { fetchSample, pythonLiteral, pythonSample } from "../../docs-src/script-samples.ts";

const CREATE: RequestExample = {
  method: "post",
  template: "/v1/images/i-a",
  pathParams: {},
  query: {},
  body: { prompt: "a fox", n: 2 },
};
const READ: RequestExample = {
  method: "get",
  template: "/v1/models",
  pathParams: {},
  query: { type: "image" },
  body: undefined,
};
const JOB: JobFollowing = {
  idField: "job_id",
  pollPath: "/v1/images/{id}",
  intervalMs: 2500,
  cadence: null,
  resultFields: ["images"],
};
const TERMINAL = ["succeeded", "failed", "timeout"];
/** The job id as the JavaScript sample interpolates it in a template literal. */
const JOB_ID = ["$", "{jobId}"].join("");

describe("pythonLiteral", () => {
  it("writes JSON's constants as Python's and numbers and strings as JSON does", () => {
    expect([null, true, false, 1.5, 'say "hi"'].map((value) => pythonLiteral(value))).toEqual([
      "None",
      "True",
      "False",
      "1.5",
      '"say \\"hi\\""',
    ]);
  });

  it("writes lists and dicts one item a line, indented a level (four spaces by default) at a time, empty ones on one line", () => {
    expect(pythonLiteral({ a: [1, { b: null }], c: [], d: {} })).toBe(
      '{\n    "a": [\n        1,\n        {\n            "b": None,\n        },\n    ],\n    "c": [],\n    "d": {},\n}',
    );
    expect(pythonLiteral([true, [false]], 2)).toBe("[\n  True,\n  [\n    False,\n  ],\n]");
  });
});

describe("pythonSample", () => {
  it("calls the route once and prints the answer when there is no job to follow", () => {
    const sample = pythonSample(READ, { job: null, terminalStatuses: TERMINAL });
    expect(sample).toMatch(
      /^import json\n[\s\S]*\n\n\nanswer = call\("GET", "\/v1\/models\?type=image"\)\nprint\(answer\)$/,
    );
    expect(sample).not.toContain("TERMINAL");
  });

  it("creates, then polls the area's route with the job's id every interval in seconds until a terminal status", () => {
    const sample = pythonSample(CREATE, { job: JOB, terminalStatuses: TERMINAL });
    expect(sample).toContain(
      '\n\n\nTERMINAL = ("succeeded", "failed", "timeout")\n\n' +
        'job = call("POST", "/v1/images/i-a", {\n    "prompt": "a fox",\n    "n": 2,\n})\n' +
        'job_id = job["job_id"]\n' +
        "# Polls every 2.5 s until the status is terminal.\n" +
        'while job.get("status") not in TERMINAL:\n' +
        "    time.sleep(2.5)\n" +
        '    job = call("GET", f"/v1/images/{job_id}")\n' +
        "print(job)",
    );
  });

  it("states the area's cadence in its words where the description gives one", () => {
    const sample = pythonSample(CREATE, {
      job: { ...JOB, cadence: "every 10 to 30 seconds" },
      terminalStatuses: TERMINAL,
    });
    expect(sample).toContain("\n# Polls at the area's cadence: every 10 to 30 seconds.\n");
  });
});

describe("fetchSample", () => {
  it("calls the route once and logs the answer when there is no job to follow", () => {
    const sample = fetchSample(READ, { job: null, terminalStatuses: TERMINAL });
    expect(sample).toMatch(
      /^\/\/ Node\.js 18[\s\S]*\n\nconst answer = await call\("GET", "\/v1\/models\?type=image"\);\nconsole\.log\(answer\);$/,
    );
  });

  it("creates, then polls the area's route with the job's id every interval in milliseconds until a terminal status", () => {
    const sample = fetchSample(CREATE, { job: JOB, terminalStatuses: TERMINAL });
    expect(sample).toContain(
      '\n\nlet job = await call("POST", "/v1/images/i-a", {\n  "prompt": "a fox",\n  "n": 2\n});\n' +
        'const jobId = job["job_id"];\n' +
        "// Polls every 2.5 s until the status is terminal.\n" +
        'const terminal = ["succeeded", "failed", "timeout"];\n' +
        "while (!terminal.includes(job.status)) {\n" +
        "  await new Promise((resolve) => setTimeout(resolve, 2500));\n" +
        `  job = await call("GET", \`/v1/images/${JOB_ID}\`);\n` +
        "}\nconsole.log(job);",
    );
  });

  it("puts the job id in place of the poll path's parameter, whatever its name", () => {
    const sample = fetchSample(CREATE, {
      job: { ...JOB, pollPath: "/v1/3d/{task_id}/status" },
      terminalStatuses: TERMINAL,
    });
    expect(sample).toContain(`job = await call("GET", \`/v1/3d/${JOB_ID}/status\`);`);
    expect(
      pythonSample(CREATE, { job: { ...JOB, pollPath: "/v1/3d/{task_id}/status" }, terminalStatuses: TERMINAL }),
    ).toContain('job = call("GET", f"/v1/3d/{job_id}/status")');
  });
});
