/**
 * How `npm run workflows` runs each Arazzo workflow of workflows/ with `redocly respect`: the inputs
 * and options a workflow needs beyond the target's address and key, and the run itself, its output
 * passed through but for Redocly's Node end-of-life box (this project pins a Redocly CLI that runs
 * on Node 20; the box is about later releases), and its exit status.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REDOCLY_OFFLINE_ENV } from "../lint/run-redocly.ts";
import { loadBundle } from "../model/document.ts";
import { readServiceModel } from "../model/service-model.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REDOCLY = join(ROOT, "node_modules", ".bin", "redocly");

export interface WorkflowRun {
  /** The file under workflows/, without `.arazzo.yaml`. */
  readonly name: string;
  /** Respect's options besides the inputs and the server. */
  readonly options: readonly string[];
  /** Why the run needs them, printed before it. */
  readonly note?: string;
  /** Inputs read from the build (NAME=VALUE), each unless the command line gives its NAME. */
  readonly builtInputs?: () => string[];
}

/** The slug of model `label` in this build (a slug map may change it). */
const builtSlug = (label: string): string =>
  readServiceModel(loadBundle()).createRoutes.find((route) => route.label === label)?.slug ?? label.toLowerCase();

/** Every workflow, in the order README and workflows/README.md list them. */
export const WORKFLOW_RUNS: readonly WorkflowRun[] = [
  { name: "create-image", options: [] },
  {
    name: "quote-then-create",
    // Respect checks an answer as if its schema forbade other fields; the quote's other fields are not shown.
    options: ["--severity", JSON.stringify({ SCHEMA_CHECK: "warn" })],
    note: "schema checks as warnings: the quote's fields beyond credits are not shown, and a target may send more (the sandbox sends model, charged, breakdown)",
    // The quote names the model by its slug, which the workflow's default (i-a) is only without a slug map.
    builtInputs: () => [`model=${builtSlug("I-A")}`],
  },
  { name: "upload-then-create", options: [] },
];

export const workflowFile = (name: string): string => join(ROOT, "workflows", `${name}.arazzo.yaml`);

/** The respect command line of a run against `server` with the API key and any other inputs (name=value). */
export function respectArgs(run: WorkflowRun, server: string, inputs: readonly string[]): string[] {
  return [
    "respect",
    workflowFile(run.name),
    ...inputs.flatMap((input) => ["--input", input]),
    "--server",
    `mediaService=${server}`,
    ...run.options,
  ];
}

/** Redocly's Node end-of-life box: from its top border to its bottom one. */
export function withoutEndOfLifeBox(text: string): string {
  return text.replace(/^[ \t]*╔═+╗[\s\S]*?^[ \t]*╚═+╝[ \t]*\n*/m, (box) =>
    /end-of-life|support is ending/i.test(box) ? "" : box,
  );
}

/** Runs respect, its stdout and stderr passed to `out` and `err` (the box left out); resolves to its exit status. */
export function runRespect(
  args: readonly string[],
  out: (text: string) => void,
  err: (text: string) => void,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(REDOCLY, [...args], {
      cwd: ROOT,
      env: { ...process.env, ...REDOCLY_OFFLINE_ENV, ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => out(chunk.toString()));
    // The box comes whole at start; the rest of stderr is passed on as it comes once the box is past.
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!stderr.includes("╔") || /╚═+╝/.test(stderr)) {
        err(withoutEndOfLifeBox(stderr));
        stderr = "";
      }
    });
    child.on("error", (error) => {
      err(`workflows: cannot run ${REDOCLY}: ${error.message}\n`);
      resolve(1);
    });
    child.on("close", (code) => {
      if (stderr) err(withoutEndOfLifeBox(stderr));
      resolve(code ?? 1);
    });
  });
}
