/**
 * Job lifecycle, read off the description: a create response's `links` name the poll operation and
 * where its parameters come from; JobStatus's enum and `x-terminal-values` give the legal statuses;
 * the poll schema's if/then rules give the result fields a terminal status carries.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { JsonSchema } from "../../model/document.ts";
import { requestPath, type Contract, type ContractOperation } from "../contract.ts";
import type { Exchange, RequestSpec } from "../http.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";
import { validRequests } from "./operations.ts";

export const GROUP = "lifecycle";

interface Link {
  operationId: string;
  parameters?: Record<string, string>;
}

/** Links of every create response that lead to `op`. */
export function linkedParameters(contract: Contract, op: ContractOperation): Link[] {
  return contract.operations.flatMap((source) =>
    Object.values(source.responses).flatMap((response) =>
      Object.values(response.links ?? {})
        .map((link) => contract.deref(link as Link))
        .filter((link) => link.operationId === op.operation.operationId),
    ),
  );
}

/** Evaluates a link's `$response.body#/pointer` runtime expressions against a response body. */
function linkValues(link: Link, body: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, expression] of Object.entries(link.parameters ?? {})) {
    const match = /^\$response\.body#(.*)$/.exec(expression);
    if (!match) throw new Error(`link parameter ${name}: runtime expression ${expression} is not supported`);
    let node: unknown = body;
    for (const raw of (match[1] ?? "").split("/").slice(1)) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    }
    values[name] = node;
  }
  return values;
}

/** For each status an if/then rule of the poll schema names, the fields `then` requires. */
function resultFields(contract: Contract, schema: JsonSchema): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (node: JsonSchema): void => {
    const condition = (node.if as JsonSchema | undefined)?.properties as Record<string, JsonSchema> | undefined;
    const status = condition?.status?.const;
    const then = node.then as JsonSchema | undefined;
    if (typeof status === "string" && Array.isArray(then?.required)) found.set(status, then.required as string[]);
    for (const child of (node.allOf ?? []) as JsonSchema[]) visit(contract.deref(child));
  };
  visit(contract.deref(schema));
  return found;
}

export async function checkLifecycle(session: Session): Promise<void> {
  const creates = session.selected().filter((op) => Object.values(op.responses).some((response) => response.links));
  for (const op of creates) {
    const valid = validRequests(session, op)[0];
    if (!valid) continue;
    const created = await session.call(op, valid.spec, true);
    const curl = session.curl(valid.spec);
    if (created.status !== 200) {
      session.results.fail(GROUP, op.route, "create answers 200 to start a job", `answered ${created.status}: ${created.text.slice(0, 300)}`, curl);
      continue;
    }
    for (const [name, raw] of Object.entries(op.responses["200"]?.links ?? {})) {
      const link = session.contract.deref(raw as Link);
      const pollOp = session.contract.byOperationId(link.operationId);
      if (!pollOp) throw new Error(`${op.route}: link ${name} names unknown operation ${link.operationId}`);
      await followJob(session, op, pollOp, name, linkValues(link, created.json));
    }
  }
}

async function followJob(session: Session, op: ContractOperation, pollOp: ContractOperation, link: string, values: Record<string, unknown>): Promise<void> {
  const route = `${op.route} -> ${pollOp.route}`;
  const missing = Object.entries(values).filter(([, value]) => value === undefined || value === null);
  if (missing.length) {
    session.results.fail(GROUP, route, `job pollable through link "${link}"`, `the create response lacks ${missing.map(([key]) => key).join(", ")}`);
    return;
  }
  const spec: RequestSpec = { method: pollOp.method, path: requestPath(session.contract, pollOp, values), headers: session.authorized() };
  const curl = session.curl(spec);
  const { values: legal, terminal } = session.contract.jobStatus;
  const polls: Exchange[] = [];
  const problems: string[] = [];
  const { intervalMs, maxPolls, stablePolls } = session.config.poll;
  // Poll until a terminal status (at most maxPolls), then stablePolls more to see that it stays.
  let terminalAt = -1;
  while (terminalAt < 0 ? polls.length < maxPolls : polls.length - 1 - terminalAt < stablePolls) {
    if (polls.length > 0) await sleep(intervalMs);
    const exchange = await session.call(pollOp, spec, true);
    polls.push(exchange);
    problems.push(...responseProblems(session.contract, pollOp, exchange).map((problem) => `poll ${polls.length}: ${problem}`));
    if (exchange.status !== 200) break;
    if (terminalAt < 0 && terminal.includes(statusOf(exchange))) terminalAt = polls.length - 1;
  }
  const first = polls[0] as Exchange;
  session.results.expect(GROUP, route, `job pollable through link "${link}"`, first.status === 200 ? [] : [`first poll answered ${first.status}`], curl);
  session.results.expect(GROUP, route, "every poll response matches the description", problems, curl);
  const statuses = polls.filter((exchange) => exchange.status === 200).map(statusOf);
  session.results.expect(
    GROUP,
    route,
    "only the JobStatus values appear",
    statuses.filter((status) => !legal.includes(status)).map((status) => `status "${status}" is not one of ${legal.join(", ")}`),
    curl,
  );
  if (!session.config.stateful) {
    const reason = "the target is stateless (the mock answers every poll with one fixed example), so there is no status sequence";
    for (const name of ["terminal state reached", "no return from a terminal state, terminal state stable", "terminal job carries exactly its result fields"]) {
      session.results.skip(GROUP, route, name, reason);
    }
    return;
  }
  const firstTerminal = statuses.findIndex((status) => terminal.includes(status));
  if (firstTerminal < 0) {
    session.results.skip(GROUP, route, "terminal state reached", `no terminal state within ${maxPolls} polls (sequence: ${statuses.join(" -> ")})`);
    return;
  }
  session.results.pass(GROUP, route, "terminal state reached");
  const after = statuses.slice(firstTerminal);
  const final = after[0] as string;
  session.results.expect(
    GROUP,
    route,
    "no return from a terminal state, terminal state stable",
    after.every((status) => status === final) ? [] : [`illegal status sequence ${statuses.join(" -> ")}: "${final}" is terminal`],
    curl,
  );
  const schema = pollOp.responses["200"]?.content?.["application/json"]?.schema;
  const rules = schema ? resultFields(session.contract, schema) : new Map<string, string[]>();
  if (rules.size === 0) {
    session.results.skip(GROUP, route, "terminal job carries exactly its result fields", `the poll schema of ${pollOp.route} names no result fields (no if/then on status)`);
    return;
  }
  session.results.expect(GROUP, route, "terminal job carries exactly its result fields", resultProblems(rules, polls[firstTerminal] as Exchange, final), curl);
}

const statusOf = (exchange: Exchange): string => String((exchange.json as { status?: unknown } | undefined)?.status);

/** A status with an if/then rule must carry its fields; other terminal statuses must carry none of them. */
function resultProblems(rules: Map<string, string[]>, exchange: Exchange, status: string): string[] {
  const body = (exchange.json ?? {}) as Record<string, unknown>;
  const required = rules.get(status);
  if (required) return required.filter((field) => !(field in body)).map((field) => `a ${status} job lacks its result field ${field}`);
  const resultOnly = [...rules.values()].flat().filter((field) => field !== "status");
  return resultOnly.filter((field) => field in body).map((field) => `a ${status} job carries the result field ${field}`);
}
