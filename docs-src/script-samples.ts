/**
 * The Python and JavaScript (fetch) code samples of an operation, from its example request: each a
 * whole program with no dependency (Python's standard library, the fetch of Node 18 and later) that
 * reads BASE_URL and API_KEY from the environment as the curl sample does, sends the request and
 * prints the answer, or the status and body of a refusal. On a create route whose answer names its
 * job, it then polls the area's status route at the area's cadence until the status is terminal,
 * as the typed client's createAndWait does. Lines stay within SAMPLE_COLUMNS (sample-layout.ts)
 * where the example's own values allow, so that the reference's code panel shows them whole.
 */
import type { JobFollowing } from "./browser/console-data.ts";
import { examplePath, type RequestExample } from "./request-example.ts";
import { callOf, JS_CALL, PYTHON_CALL } from "./sample-layout.ts";

/** What a script sample needs besides the request: how its job is followed, and when to stop. */
export interface ScriptJob {
  readonly job: JobFollowing | null;
  readonly terminalStatuses: readonly string[];
}

/** A JSON value as a Python literal (True, False, None), indented by `indent` spaces per level. */
export function pythonLiteral(value: unknown, indent = 4, depth = 0): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  const inner = " ".repeat(indent * (depth + 1));
  const outer = " ".repeat(indent * depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, indent, depth + 1)},`).join("\n")}\n${outer}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  const lines = entries.map(
    ([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, indent, depth + 1)},`,
  );
  return `{\n${lines.join("\n")}\n${outer}}`;
}

/** The poll path with a placeholder of the language's string interpolation in place of its parameter. */
const pollPathWith = (job: JobFollowing, placeholder: string): string =>
  job.pollPath.replace(/\{[^}]+\}/, () => placeholder);

const cadenceComment = (job: JobFollowing, comment: string): string =>
  job.cadence
    ? `${comment} Polls at the area's cadence: ${job.cadence}.`
    : `${comment} Polls every ${job.intervalMs / 1000} s until the status is terminal.`;

const PYTHON_SETUP = `import json
import os
import time
import urllib.error
import urllib.request

BASE_URL = os.environ["BASE_URL"]
API_KEY = os.environ["API_KEY"]


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        BASE_URL + path,
        data=data,
        method=method,
        headers={
            "Authorization": f"Bearer {API_KEY}",
            "Content-Type": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        body = error.read().decode()
        raise SystemExit(f"{error.code}: {body}")`;

export function pythonSample(request: RequestExample, { job, terminalStatuses }: ScriptJob): string {
  const args = [JSON.stringify(request.method.toUpperCase()), JSON.stringify(examplePath(request))];
  if (request.body !== undefined) args.push(pythonLiteral(request.body));
  if (!job) return `${PYTHON_SETUP}\n\n\n${callOf("answer = call", args, PYTHON_CALL)}\nprint(answer)`;
  const terminal = terminalStatuses.map((status) => JSON.stringify(status)).join(", ");
  return `${PYTHON_SETUP}


TERMINAL = (${terminal})

${callOf("job = call", args, PYTHON_CALL)}
job_id = job[${JSON.stringify(job.idField)}]
${cadenceComment(job, "#")}
while job.get("status") not in TERMINAL:
    time.sleep(${job.intervalMs / 1000})
    job = call("GET", f${JSON.stringify(pollPathWith(job, "{job_id}"))})
print(job)`;
}

/** The job id's interpolation in a JavaScript template literal: `${jobId}`. */
const JS_JOB_ID = ["$", "{jobId}"].join("");

const FETCH_SETUP = `// Node.js 18 or later, as an ES module (sample.mjs).
const BASE_URL = process.env.BASE_URL;
const API_KEY = process.env.API_KEY;

async function call(method, path, body) {
  const response = await fetch(BASE_URL + path, {
    method,
    headers: {
      Authorization: \`Bearer \${API_KEY}\`,
      "Content-Type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    const text = JSON.stringify(answer);
    throw new Error(\`\${response.status}: \${text}\`);
  }
  return answer;
}`;

export function fetchSample(request: RequestExample, { job, terminalStatuses }: ScriptJob): string {
  const args = [JSON.stringify(request.method.toUpperCase()), JSON.stringify(examplePath(request))];
  if (request.body !== undefined) args.push(JSON.stringify(request.body, null, 2));
  if (!job) return `${FETCH_SETUP}\n\n${callOf("const answer = await call", args, JS_CALL)}\nconsole.log(answer);`;
  return `${FETCH_SETUP}

${callOf("let job = await call", args, JS_CALL)}
const jobId = job[${JSON.stringify(job.idField)}];
${cadenceComment(job, "//")}
const terminal = [${terminalStatuses.map((status) => JSON.stringify(status)).join(", ")}];
while (!terminal.includes(job.status)) {
  await new Promise((resolve) => setTimeout(resolve, ${job.intervalMs}));
  job = await call("GET", \`${pollPathWith(job, JS_JOB_ID)}\`);
}
console.log(job);`;
}
