/**
 * The repeated-failure cooldown of the content-filtered model family, on a key the declaration
 * lends for it: creates are accepted until the description's number of consecutive failed jobs,
 * then the family is paused with a 429 carrying Retry-After and the seconds left, which agree with
 * each other and with the pause; meanwhile a model outside the family is not paused. The pause is not waited out (the description's pauseSeconds), so the probe is the
 * key's last request.
 */
import { STAGE, type Check } from "../check.ts";
import { numericHeader, type Client } from "../client.ts";
import { accepted } from "../http.ts";
import { chargedJob, createJob } from "../jobs.ts";
import { followable, hasPrompt, marked, pricedCreates } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import { conditionsOf } from "../retry-after.ts";
import type { Session } from "../session.ts";

const GROUP = "cooldown";

/** The cheapest create request of the family the cooldown concerns. */
const familyCreate = (session: Session) =>
  [...pricedCreates(session, false), ...pricedCreates(session, true)].find(
    (request) => request.op.create?.family === session.contract.model.limits.cooldown.family && followable(session, request.op) && hasPrompt(request.op),
  );

/** The cheapest create request of a model outside the family, which its pause must not touch. */
const outsideCreate = (session: Session) => pricedCreates(session, false).find((request) => request.op.create?.family !== session.contract.model.limits.cooldown.family);

/** While the family is paused, a create of another model on the same account is still accepted. */
async function otherModelsGoOn(session: Session, client: Client): Promise<void> {
  const other = outsideCreate(session);
  const name = "models outside the paused family are not paused";
  if (!other) return void session.results.skip(GROUP, "*", name, "the target implements no create route outside the family");
  const spec = { ...other.spec, headers: client.authorized() };
  // Its job is not waited for: the family's pause must still run when its 429 is asked for.
  const { exchange } = await createJob(client, other.op, spec, "accept");
  const paused = exchange.status === 429 && conditionsOf(session.contract, exchange.json).has("cooldown");
  session.results.expect(GROUP, other.op.route, name, accepted(exchange) ? [] : [`answered ${exchange.status}${paused ? ", the cooldown 429" : ""}: ${exchange.text.slice(0, 200)}`], session.curl(spec));
}

export const cooldown: Check = {
  group: GROUP,
  summary: "With cooldownApiKey and outcomeMarkers.failed: the family's creates are accepted until the consecutive failures the description names, then refused with a 429 whose Retry-After and seconds agree with the pause; models outside the family go on.",
  blockedBy(session) {
    const { config } = session;
    if (!config.stateful) return "the target is stateless";
    if (!config.cooldownApiKey) return "the declaration gives no cooldownApiKey (a key whose account the suite may pause)";
    if (!config.outcomeMarkers.failed) return "the declaration gives no outcomeMarkers.failed (a way to make a job fail)";
    return familyCreate(session) ? null : `the target implements no create route of the ${session.contract.model.limits.cooldown.family} family`;
  },
  spend(session) {
    const other = outsideCreate(session);
    return other ? [{ key: session.client(session.config.cooldownApiKey!).name, what: `${other.op.route} (cooldown: another model)`, price: other.price }] : [];
  },
  async run({ session, stage, status }) {
    const { contract, config } = session;
    const { consecutiveFailures, pauseSeconds } = contract.model.limits.cooldown;
    const failed = contract.model.jobStatus.failure.find((candidate) => candidate !== contract.model.jobStatus.timeout);
    const key = config.cooldownApiKey as string;
    const client = key === session.main.apiKey ? session.main : session.client(key);
    // Another job of the family on the same account would end the run of failures.
    if (client === session.main) await stage(STAGE.late);
    const request = familyCreate(session)!;
    const spec = marked({ ...request.spec, headers: client.authorized() }, config.outcomeMarkers.failed as string);
    const route = request.op.route;
    let lastCreated = 0;
    for (let failures = 0; failures < consecutiveFailures; failures++) {
      status(`failed job ${failures + 1} of ${consecutiveFailures}`);
      lastCreated = Date.now();
      const created = await chargedJob(client, request.op, spec, request.price.atMost ? null : request.price.credits, (job) => job);
      if (!created.job) {
        session.results.fail(GROUP, route, `creates are accepted until ${consecutiveFailures} consecutive failures`, `refused after ${failures}: ${created.exchange.status} ${created.exchange.text.slice(0, 200)}`, session.curl(spec));
        return;
      }
      if (created.job.terminal !== failed) {
        session.results.fail(GROUP, route, "the declared failed marker makes a job fail", `the job ended ${created.job.terminal ?? created.job.stoppedBy}`, session.curl(spec));
        return;
      }
    }
    session.results.pass(GROUP, route, `creates are accepted until ${consecutiveFailures} consecutive failures`);
    await otherModelsGoOn(session, client);
    // The 429's Retry-After stops this key for the pause: nothing may follow it.
    await stage(STAGE.final);
    const sentAt = Date.now();
    const { exchange } = await createJob(client, request.op, spec, "reject");
    const curl = session.curl(spec);
    const paused = exchange.status === 429 && conditionsOf(contract, exchange.json).has("cooldown");
    session.results.expect(GROUP, route, `after ${consecutiveFailures} consecutive failures the family is paused with the cooldown 429`, paused ? responseProblems(contract, request.op, exchange) : [`answered ${exchange.status}: ${exchange.text.slice(0, 200)}`], curl);
    if (!paused) return;
    const field = contract.model.errors.tooManyRequests.variants.find((variant) => variant.condition === "cooldown")?.secondsField ?? "";
    const body = exchange.json as Record<string, unknown> & { error?: Record<string, unknown> };
    const seconds = body[field] ?? body.error?.[field];
    const header = numericHeader(exchange, contract.model.retryAfterHeader);
    // The pause began when the last failed job ended, after it was created.
    const least = pauseSeconds - Math.ceil((sentAt - lastCreated) / 1000) - 1;
    const problems = [
      ...(header === null ? [`no ${contract.model.retryAfterHeader}`] : []),
      ...(typeof seconds === "number" && seconds >= least && seconds <= pauseSeconds ? [] : [`${field} is ${JSON.stringify(seconds)}; the pause of ${pauseSeconds} s began at most ${pauseSeconds - least} s ago`]),
      ...(header !== null && typeof seconds === "number" && Math.abs(header - seconds) > 1 ? [`${contract.model.retryAfterHeader} is ${header} beside ${field}: ${seconds}`] : []),
    ];
    session.results.expect(GROUP, route, "the cooldown's Retry-After and seconds left agree with the pause", problems, curl);
  },
};
