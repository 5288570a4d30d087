/**
 * The requests the description holds valid, and how their answers are judged: a documented 2xx
 * with a valid response, unless the description cannot promise a real implementation accepts the
 * request (unstated.ts), in which case a documented refusal is reported as a skip with the reason.
 */
import type { Client } from "./client.ts";
import { requestPath, type ContractOperation, type NamedExample } from "../contract/contract.ts";
import { priceOf, quotedBody, type Price } from "./cost.ts";
import { accepted, type Exchange, type RequestSpec } from "./http.ts";
import { createJob, idFieldOf } from "./jobs.ts";
import { responseProblems } from "./response-check.ts";
import type { Session } from "./session.ts";
import { unstatedAcceptance } from "./unstated.ts";

export interface NamedRequest {
  /** `"text-to-image"`, or `(no body)`. */
  name: string;
  spec: RequestSpec;
  /** The body is the target's own declaration (uploadRequest), so nothing about it is unstated. */
  declared?: boolean;
}

/** One request per named example (or one without a body); the declared upload body for the uploads route. */
export function validRequests(
  session: Session,
  op: ContractOperation,
  client: Client,
  examples: NamedExample[] = op.requestExamples,
): NamedRequest[] {
  const path = requestPath(session.contract, op);
  const headers = client.authorized();
  if (!op.requestSchema) return [{ name: "(no body)", spec: { method: op.method, path, headers } }];
  const upload = session.config.uploadRequest;
  if (upload && op.facts.operationId === session.contract.model.limits.uploads.operationId) {
    return [
      {
        name: "(the declared uploadRequest)",
        spec: { method: op.method, path, headers, body: upload },
        declared: true,
      },
    ];
  }
  return examples.map((example) => ({
    name: `"${example.name}"`,
    spec: { method: op.method, path, headers, body: example.value },
  }));
}

/** Records whether `request`, which the description holds valid, was accepted. */
export function expectAccepted(
  session: Session,
  group: string,
  route: string,
  op: ContractOperation,
  request: NamedRequest,
  exchange: Exchange,
): void {
  const name = `valid request ${request.name} accepted`;
  const problems = responseProblems(session.contract, op, exchange);
  const curl = session.curl(request.spec);
  if (accepted(exchange)) {
    session.results.expect(group, route, name, problems, curl);
    return;
  }
  const unstated = request.declared ? null : unstatedAcceptance(op, request.spec.body, session.config.describedShapes);
  if (unstated && problems.length === 0) {
    session.results.skip(
      group,
      route,
      name,
      `the target refused it with ${exchange.status}, which the description allows: ${unstated}`,
    );
    return;
  }
  session.results.fail(
    group,
    route,
    name,
    [`a valid request answered ${exchange.status}: ${exchange.text.slice(0, 300)}`, ...problems].join("; "),
    curl,
  );
}

/**
 * Sends a request the target should refuse. A create to a stateful target goes through createJob,
 * so that a job it starts all the same is followed to its end and its slot freed. A target may
 * lawfully accept some such bodies (a field beyond the listed ones, which the specification never
 * says is refused), so a job it starts must neither be charged nor surprise the billing check: the
 * body carries the failed-outcome marker where one is declared and the body stays invalid with it,
 * and the create sent with the client's key runs as one of its account's charges (never beside
 * the billing measurement), awaited until its job, if any, ends.
 */
export async function sendInvalid(
  session: Session,
  client: Client,
  op: ContractOperation,
  spec: RequestSpec,
): Promise<Exchange> {
  if (op.facts.kind !== "create" || !session.config.stateful) return client.send(op, spec);
  // Sent without the client's own key (the auth checks), no job it starts is its account's charge.
  if (spec.headers.authorization !== client.authorized().authorization)
    return (await createJob(client, op, spec, "reject")).exchange;
  const sent = markedInvalid(session, op, spec);
  return client.charges.charge(null, async () => {
    const created = await createJob(client, op, sent, "reject");
    await created.job?.ended;
    return created.exchange;
  });
}

/** The marker a negative create carries so that a job it starts by mistake ends unsuccessful, and is not charged. */
export const negativeMarker = (session: Session): string | undefined =>
  session.config.outcomeMarkers.failed ?? session.config.outcomeMarkers.timeout;

/** `spec` with the negative marker in its prompt (added where it has none), where the schema has one and the marked body is still invalid; else `spec`. */
export function markedInvalid(session: Session, op: ContractOperation, spec: RequestSpec): RequestSpec {
  const marker = negativeMarker(session);
  const body = spec.body;
  // A body that is no object (a bare string, a list) stays as it is: a marker would make it one.
  if (!marker || typeof body !== "object" || body === null || Array.isArray(body) || !hasPrompt(op)) return spec;
  const prompt = (body as Record<string, unknown>).prompt;
  if (prompt !== undefined && typeof prompt !== "string") return spec;
  const withMarker = marked(spec, marker);
  return session.contract.validBody(op, withMarker.body) ? spec : withMarker;
}

/** A create whose jobs the suite can follow: its response names the id and its area has a poll route. */
export function followable(session: Session, op: ContractOperation): boolean {
  return idFieldOf(session.config, op) !== null && session.contract.pollOf(op) !== undefined;
}

export interface PricedCreate {
  op: ContractOperation;
  spec: RequestSpec;
  price: Price;
}

/**
 * The implemented followable create requests (one per example the suite sends) whose price is held
 * or not, with their standard price: cheapest first, or for held prices the shortest typical job
 * first (a 3D job takes minutes).
 */
export function pricedCreates(session: Session, held: boolean): PricedCreate[] {
  const typical = (op: ContractOperation): number =>
    session.contract.pollOf(op)?.polls?.poll.typicalDurationSeconds?.min ?? 0;
  const byPrice = (a: PricedCreate, b: PricedCreate): number =>
    (a.price.credits ?? Infinity) - (b.price.credits ?? Infinity);
  const byTime = (a: PricedCreate, b: PricedCreate): number => typical(a.op) - typical(b.op);
  return session
    .selected()
    .filter((op) => followable(session, op) && op.create?.priceHeld === held)
    .flatMap((op) =>
      validRequests(session, op, session.main, session.createExamples(op)).map((request) => ({
        op,
        spec: request.spec,
        price: priceOf(session.contract, op, quotedBody(request.spec)),
      })),
    )
    .sort((a, b) => (held ? byTime(a, b) || byPrice(a, b) : byPrice(a, b) || byTime(a, b)));
}

/** The request schema has a `prompt`, where an outcome marker goes. */
export const hasPrompt = (op: ContractOperation): boolean =>
  "prompt" in ((op.requestSchema?.properties ?? {}) as object);

/** The request with an outcome marker (declaration's outcomeMarkers) added to its prompt. */
export function marked(spec: RequestSpec, marker: string): RequestSpec {
  const body = (spec.body ?? {}) as Record<string, unknown>;
  return {
    ...spec,
    body: { ...body, prompt: `${typeof body.prompt === "string" ? body.prompt : ""} ${marker}`.trim() },
  };
}

/** The operation that reads the account's balance. */
export const creditsOp = (session: Session): ContractOperation | undefined =>
  session.selected().find((op) => op.facts.operationId === session.contract.model.account.creditsOperationId);

/** The account's credits available (the service model's account.availableField), or why they cannot be read. */
export async function balanceOf(session: Session, client: Client): Promise<number | string> {
  const op = creditsOp(session);
  if (!op) return "the target does not implement the credits route";
  const exchange = await client.send(
    op,
    { method: op.method, path: op.path, headers: client.authorized() },
    { positive: true },
  );
  const total = (exchange.json as Record<string, unknown> | undefined)?.[session.contract.model.account.availableField];
  return exchange.status === 200 && Number.isInteger(total)
    ? (total as number)
    : `GET ${op.path} answered ${exchange.status}: ${exchange.text.slice(0, 200)}`;
}
