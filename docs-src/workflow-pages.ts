/**
 * The docs' guide pages of the Arazzo workflows (workflows/*.arazzo.yaml): one page per workflow
 * file, its steps as a numbered list (the operation each calls, as the description names it, when
 * it succeeds, what it keeps, when it is retried), its inputs and how to run it. Registered as
 * generated pages of the site (site-pages.ts). Descriptions are CommonMark, as Arazzo allows;
 * everything else from a workflow is shown as code.
 *
 * site-pages.ts is also bundled into the pages' own script, so this module imports nothing of
 * Node's and does no work until a page is built: the files are read when a page's Markdown (or
 * title) is asked for, at build time.
 */
import type { OpenApiDocument } from "../model/document.ts";

/** The workflows the docs show, by file name in workflows/ (tests/workflows/ holds it to the folder). */
export const WORKFLOW_NAMES = ["create-image", "quote-then-create", "upload-then-create"] as const;

/** A page made at build time from a workflow file (the site's generated-page shape). */
export interface WorkflowPage {
  kind: "generated";
  file: string;
  nav: string;
  /** The workflow file, from the project root. */
  source: string;
  markdown(doc: OpenApiDocument): string;
}

interface Criterion {
  condition: string;
  context?: string;
  type?: string;
}
interface Action {
  reference?: string;
  name?: string;
  type?: string;
  retryAfter?: number;
  retryLimit?: number;
  criteria?: Criterion[];
}
interface Step {
  stepId: string;
  description?: string;
  operationId: string;
  successCriteria?: Criterion[];
  onFailure?: Action[];
  outputs?: Record<string, string>;
}
interface Arazzo {
  info: { title: string; description?: string };
  workflows: Array<{
    workflowId: string;
    summary?: string;
    description?: string;
    inputs?: {
      required?: string[];
      properties?: Record<string, { type?: string; description?: string; default?: unknown }>;
    };
    steps: Step[];
    outputs?: Record<string, string>;
  }>;
  components?: { failureActions?: Record<string, Action> };
}

const WORKFLOWS = "workflows";

/** A workflow file read and parsed (Node's fs and the yaml package, loaded only when a page is built). */
function readWorkflow(file: string): Arazzo {
  const fs = process.getBuiltinModule("node:fs");
  const yaml = process.getBuiltinModule("node:module").createRequire(import.meta.url)("yaml") as {
    parse(text: string): unknown;
  };
  return yaml.parse(fs.readFileSync(file, "utf8")) as Arazzo;
}

/** Each operation's route, `METHOD /path`, by operationId. */
function routes(doc: OpenApiDocument): Map<string, string> {
  const found = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const id = (operation as { operationId?: unknown } | null)?.operationId;
      if (typeof id === "string") found.set(id, `${method.toUpperCase()} ${path}`);
    }
  }
  return found;
}

/** Inline code whatever the text holds: a fence longer than any run of backticks in it. */
function code(text: string): string {
  const fence = "`".repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length)) + 1);
  return `${fence}${text.includes("`") ? ` ${text} ` : text}${fence}`;
}

/** A text on one line: a newline in it would end the list item. */
const oneLine = (text: string): string => text.trim().replace(/\s*\n\s*/g, " ");

const criteria = (list: Criterion[]): string =>
  list.map(({ condition, context }) => code(context ? `${context}: ${condition}` : condition)).join(" and ");

function resolveAction(action: Action, workflow: Arazzo): Action {
  const name = action.reference?.match(/^\$components\.failureActions\.(.+)$/)?.[1];
  return name === undefined ? action : (workflow.components?.failureActions?.[name] ?? action);
}

function failureLine(action: Action): string {
  if (action.type === "retry") {
    const limit = action.retryLimit === undefined ? "" : `, at most ${action.retryLimit} times`;
    return `Tried again after ${action.retryAfter ?? 0} s${limit}, while ${criteria(action.criteria ?? [])}.`;
  }
  return `On failure: ${code(action.type ?? "end")}${action.criteria ? ` when ${criteria(action.criteria)}` : ""}.`;
}

function stepItem(step: Step, index: number, workflow: Arazzo, routeOf: Map<string, string>): string {
  const operationId = step.operationId.split(".").at(-1)!;
  const route = routeOf.get(operationId);
  const lines = [
    `${index + 1}. **${code(step.stepId)}**: ${route ? `${code(route)} (${code(operationId)})` : code(operationId)}${step.description ? `. ${oneLine(step.description)}` : ""}`,
  ];
  if (step.successCriteria?.length) lines.push(`   - Succeeds when ${criteria(step.successCriteria)}.`);
  for (const action of step.onFailure ?? []) lines.push(`   - ${failureLine(resolveAction(action, workflow))}`);
  const kept = Object.entries(step.outputs ?? {});
  if (kept.length) lines.push(`   - Keeps ${kept.map(([name, from]) => `${code(name)} (${code(from)})`).join(", ")}.`);
  return lines.join("\n");
}

/** The page's Markdown for one workflow file, the operations' routes read from `doc`. */
export function workflowMarkdown(file: string, workflow: Arazzo, doc: OpenApiDocument): string {
  const routeOf = routes(doc);
  const sections = [`# ${oneLine(workflow.info.title)}`];
  if (workflow.info.description) sections.push(workflow.info.description.trim());
  for (const flow of workflow.workflows) {
    sections.push(
      `## ${oneLine(flow.summary ?? flow.workflowId)}`,
      `Workflow ${code(flow.workflowId)} in ${code(file)}.`,
    );
    if (flow.description) sections.push(flow.description.trim());
    const inputs = Object.entries(flow.inputs?.properties ?? {});
    if (inputs.length) {
      const required = new Set(flow.inputs?.required ?? []);
      const rows = inputs.map(([name, input]) => {
        const given = required.has(name)
          ? "required"
          : input.default === undefined
            ? "optional"
            : `default ${code(JSON.stringify(input.default))}`;
        return `- ${code(name)} (${given}): ${oneLine(input.description ?? "")}`;
      });
      sections.push("### Inputs", rows.join("\n"));
    }
    sections.push("### Steps", flow.steps.map((step, index) => stepItem(step, index, workflow, routeOf)).join("\n"));
    const outputs = Object.entries(flow.outputs ?? {});
    if (outputs.length)
      sections.push("### Outputs", outputs.map(([name, from]) => `- ${code(name)}: ${code(from)}`).join("\n"));
  }
  sections.push(
    "### Running it",
    `With Redocly CLI, against the sandbox or any implementation of the service, giving the inputs above (${code("workflows/README.md")} has each workflow's command):`,
    [
      "```sh",
      `REDOCLY_TELEMETRY=off npx redocly respect ${file} --input apiKey=KEY --server mediaService=URL`,
      "```",
    ].join("\n"),
  );
  return `${sections.join("\n\n")}\n`;
}

/** One generated page per workflow of `names`, read from `dir` (workflows/ by default) when built. */
export function workflowPages(names: readonly string[] = WORKFLOW_NAMES, dir?: string): WorkflowPage[] {
  return names.map((name) => {
    const source = `${WORKFLOWS}/${name}.arazzo.yaml`;
    const file = (): string =>
      dir === undefined
        ? process.getBuiltinModule("node:url").fileURLToPath(new URL(`../${source}`, import.meta.url))
        : `${dir}/${name}.arazzo.yaml`;
    const read = (): Arazzo => readWorkflow(file());
    return {
      kind: "generated",
      file: `workflow-${name}.html`,
      get nav() {
        return oneLine(read().info.title);
      },
      source,
      markdown: (doc) => workflowMarkdown(source, read(), doc),
    };
  });
}
