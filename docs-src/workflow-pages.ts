/**
 * The docs' guide pages of the Arazzo workflows (workflows/*.arazzo.yaml): one page per workflow
 * file, its steps as a numbered list (the operation each calls, as the description names it, when
 * it succeeds, what it keeps, when it is retried), its inputs and how to run it. Registered as
 * generated pages of the site (site-pages.ts). Descriptions are CommonMark, as Arazzo allows;
 * everything else from a workflow is shown as code.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { operations, type OpenApiDocument } from "../model/document.ts";

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
    inputs?: { required?: string[]; properties?: Record<string, { type?: string; description?: string; default?: unknown }> };
    steps: Step[];
    outputs?: Record<string, string>;
  }>;
  components?: { failureActions?: Record<string, Action> };
}

const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORKFLOWS = "workflows";

/** Inline code whatever the text holds: a fence longer than any run of backticks in it. */
function code(text: string): string {
  const fence = "`".repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length)) + 1);
  return `${fence}${text.includes("`") ? ` ${text} ` : text}${fence}`;
}

/** A text on one line: a newline in it would end the list item. */
const oneLine = (text: string): string => text.trim().replace(/\s*\n\s*/g, " ");

const criteria = (list: Criterion[]): string => list.map(({ condition, context }) => code(context ? `${context}: ${condition}` : condition)).join(" and ");

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

function stepItem(step: Step, index: number, workflow: Arazzo, routes: Map<string, string>): string {
  const operationId = step.operationId.split(".").at(-1)!;
  const route = routes.get(operationId);
  const lines = [`${index + 1}. **${code(step.stepId)}**: ${route ? `${code(route)} (${code(operationId)})` : code(operationId)}${step.description ? `. ${oneLine(step.description)}` : ""}`];
  if (step.successCriteria?.length) lines.push(`   Succeeds when ${criteria(step.successCriteria)}.`);
  for (const action of step.onFailure ?? []) lines.push(`   ${failureLine(resolveAction(action, workflow))}`);
  const kept = Object.entries(step.outputs ?? {});
  if (kept.length) lines.push(`   Keeps ${kept.map(([name, from]) => `${code(name)} (${code(from)})`).join(", ")}.`);
  return lines.join("\n");
}

/** The page's Markdown for one workflow file, the operations' routes read from `doc`. */
export function workflowMarkdown(file: string, workflow: Arazzo, doc: OpenApiDocument): string {
  const routes = new Map(operations(doc).map(({ path, method, operation }) => [operation.operationId, `${method.toUpperCase()} ${path}`]));
  const sections = [`# ${oneLine(workflow.info.title)}`];
  if (workflow.info.description) sections.push(workflow.info.description.trim());
  for (const flow of workflow.workflows) {
    sections.push(`## ${oneLine(flow.summary ?? flow.workflowId)}`, `Workflow ${code(flow.workflowId)} in ${code(file)}.`);
    if (flow.description) sections.push(flow.description.trim());
    const inputs = Object.entries(flow.inputs?.properties ?? {});
    if (inputs.length) {
      const required = new Set(flow.inputs?.required ?? []);
      const rows = inputs.map(([name, input]) => {
        const given = required.has(name) ? "required" : input.default === undefined ? "optional" : `default ${code(JSON.stringify(input.default))}`;
        return `- ${code(name)} (${given}): ${oneLine(input.description ?? "")}`;
      });
      sections.push("### Inputs", rows.join("\n"));
    }
    sections.push("### Steps", flow.steps.map((step, index) => stepItem(step, index, workflow, routes)).join("\n"));
    const outputs = Object.entries(flow.outputs ?? {});
    if (outputs.length) sections.push("### Outputs", outputs.map(([name, from]) => `- ${code(name)}: ${code(from)}`).join("\n"));
  }
  sections.push(
    "### Running it",
    `With Redocly CLI, against the sandbox or any implementation of the service, giving the inputs above (${code("workflows/README.md")} has each workflow's command):`,
    ["```sh", `REDOCLY_TELEMETRY=off npx redocly respect ${file} --input apiKey=KEY --server mediaService=URL`, "```"].join("\n"),
  );
  return `${sections.join("\n\n")}\n`;
}

/** One generated page per workflow file of `dir` (workflows/ by default), by file name. */
export function workflowPages(dir = join(PROJECT_ROOT, WORKFLOWS)): WorkflowPage[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".arazzo.yaml"))
    .sort()
    .map((name) => {
      const source = `${WORKFLOWS}/${name}`;
      const read = (): Arazzo => parse(readFileSync(join(dir, name), "utf8")) as Arazzo;
      return {
        kind: "generated",
        file: `workflow-${name.replace(/\.arazzo\.yaml$/, "")}.html`,
        nav: oneLine(read().info.title),
        source,
        markdown: (doc) => workflowMarkdown(source, read(), doc),
      };
    });
}
