/**
 * The account's concurrency cap: with the declared cap of the suite's jobs running (the other
 * checks' jobs fill it, topped up with the cheapest job whenever it is not full), polling still answers, one
 * more create is refused as queue full without Retry-After, and no create is refused as queue
 * full while fewer jobs run. Jobs that end while the cap is probed make the probe inconclusive; it
 * is tried again.
 */
import { STAGE, type Check } from "../check.ts";
import type { MeasuredCharge } from "../coordination.ts";
import { accepted, type Exchange } from "../http.ts";
import { chargedJob, follow, statusOf } from "../jobs.ts";
import { pricedCreates } from "../requests.ts";
import { conditionsOf } from "../retry-after.ts";
import type { Session } from "../session.ts";

const GROUP = "concurrency";
const ATTEMPTS = 3;

/**
 * The most jobs the check adds to fill the cap: a cap's worth. The other checks' jobs end at their
 * own pace (and some wait for the billing check), so jobs are added whenever the cap is not full.
 */
const fillers = (session: Session): number => session.concurrency;

export const concurrency: Check = {
  group: GROUP,
  summary: "With concurrency declared and that many jobs running, polls still answer, one more create is refused as queue full without Retry-After, and no create is refused as queue full below the cap.",
  blockedBy(session) {
    if (!session.config.stateful) return "the target is stateless";
    // The cap starts at the plan's limit and rises with usage: no value holds for every honest target.
    if (session.config.concurrency === undefined) return "the account's cap is not declared (concurrency); the specification's cap starts at the plan's limit and rises with usage, so no value can be assumed";
    return pricedCreates(session, false)[0] ? null : "the target implements no create route whose jobs the suite can follow";
  },
  spend(session) {
    const cheapest = pricedCreates(session, false)[0];
    return cheapest ? Array.from({ length: fillers(session) + 1 }, () => ({ key: session.main.name, what: `${cheapest.op.route} (concurrency)`, price: cheapest.price })) : [];
  },
  observe(session, { client, op, exchange, options }) {
    // A 429 chosen with Prism's Prefer header is the mock's example, not the state of its limits.
    if (client !== session.main || exchange.status !== 429 || exchange.request.headers.prefer !== undefined) return;
    const conditions = conditionsOf(session.contract, exchange.json);
    if (op.facts.kind === "poll" && (conditions.has("queue-full") || conditions.has("spend-limit"))) {
      session.results.fail(GROUP, op.route, "polling never counts against the concurrency cap", `a poll was refused with a queue-full 429: ${exchange.text.slice(0, 200)}`, session.curl(exchange.request));
    }
    const running = options.jobsInFlight;
    // Jobs the suite lost track of may still run: then the count proves nothing.
    if (op.facts.kind === "create" && conditions.has("queue-full") && session.config.concurrency !== undefined && running !== undefined && running < session.concurrency && client.unsure === 0) {
      session.results.fail(GROUP, op.route, "no create is refused as queue full below the cap", `refused as queue full with ${running} of the suite's jobs running; the declared cap is ${session.concurrency}`, session.curl(exchange.request));
    }
  },
  async run({ session, stage, status }) {
    const client = session.main;
    const cheapest = pricedCreates(session, false)[0]!;
    const credits = cheapest.price.atMost ? null : cheapest.price.credits;
    const topUp: Array<Promise<void>> = [];
    const begun = Date.now();
    // Filled by the other checks' jobs and these; once every other check is done, the probe has nothing to stand on.
    let late = false;
    const lateReached = stage(STAGE.late).then(() => void (late = true));
    for (let attempt = 1; attempt <= ATTEMPTS && !late; attempt++) {
      status("waiting for the cap to fill");
      while (client.jobs.size < client.slots.cap && !late) {
        // The other checks' jobs get two polls' time to fill the cap before any job is added.
        const due = Date.now() - begun > 2 * session.pollIntervalMs(session.contract.pollOf(cheapest.op)!);
        if (due && client.slots.inFlight < client.slots.cap && topUp.length < fillers(session)) topUp.push(chargedJob(client, cheapest.op, cheapest.spec, credits, () => undefined));
        await Promise.race([session.sleep(50), lateReached]);
      }
      if (late) break;
      status(`probing the cap of ${client.slots.cap}`);
      if ((await probe(session, attempt === 1)) === "done") return void (await Promise.all(topUp));
    }
    session.results.skip(GROUP, "*", "a create beyond the cap is refused as queue full", late ? "the suite's jobs never filled the cap" : `jobs ended while the cap was probed, ${ATTEMPTS} times; no verdict`);
    await Promise.all(topUp);
  },
};

/** Polls every running job, sends one create more, and polls again. */
async function probe(session: Session, recordPolls: boolean): Promise<"done" | "inconclusive"> {
  const client = session.main;
  const jobs = [...client.jobs];
  const cap = client.slots.cap;
  const running = async (): Promise<Exchange[]> => Promise.all(jobs.map((job) => client.send(job.poll, job.pollSpec, { positive: true })));
  const stillRunning = (polls: Exchange[]): boolean =>
    polls.every((exchange) => exchange.status === 200 && !session.contract.model.jobStatus.terminal.includes(statusOf(exchange)));
  const before = await running();
  if (recordPolls) {
    const refused = before.filter((exchange) => exchange.status === 429);
    session.results.expect(GROUP, jobs[0]?.poll.route ?? "*", "polls answer while the cap is reached", refused.map((exchange) => `a poll answered 429: ${exchange.text.slice(0, 200)}`));
  }
  if (jobs.length < cap || !stillRunning(before)) return "inconclusive";
  const cheapest = pricedCreates(session, false)[0]!;
  const credits = cheapest.price.atMost ? null : cheapest.price.credits;
  const slot = client.slots.take();
  const name = `a create beyond the cap of ${cap} is refused as queue full`;
  const curl = session.curl(cheapest.spec);
  // A job a slot freed just before the create may let it start and succeed: the billing check must
  // count that charge, or not be measuring meanwhile. An exact price joins a measurement at once.
  const charged = <T>(work: (report: (charge: MeasuredCharge) => void) => Promise<T>): Promise<T> => (credits === null ? client.charges.charge(null, work) : client.charges.unplanned(work));
  const { exchange, ranOn } = await charged(async (report) => {
    const sent = await client.send(cheapest.op, cheapest.spec, { positive: true, jobsInFlight: jobs.length });
    if (!accepted(sent)) return { exchange: sent, ranOn: false };
    const job = follow(client, cheapest.op, sent, slot).job;
    if (job && credits !== null) report({ what: `${cheapest.op.route} (${job.id})`, credits, charged: () => job.terminal === session.contract.model.jobStatus.success, op: cheapest.op, spec: cheapest.spec });
    const others = stillRunning(await running());
    await job?.ended;
    return { exchange: sent, ranOn: others };
  });
  if (accepted(exchange)) {
    if (!ranOn) return "inconclusive";
    session.results.fail(GROUP, cheapest.op.route, name, `accepted a create while ${jobs.length} of the suite's jobs were running`, curl);
    return "done";
  }
  slot.release();
  const queueFull = exchange.status === 429 && conditionsOf(session.contract, exchange.json).has("queue-full");
  session.results.expect(GROUP, cheapest.op.route, name, queueFull ? [] : [`answered ${exchange.status}, not the queue-full 429: ${exchange.text.slice(0, 200)}`], curl);
  const retryAfter = exchange.headers.get(session.contract.model.retryAfterHeader);
  if (queueFull) session.results.expect(GROUP, cheapest.op.route, "the queue-full 429 carries no Retry-After", retryAfter === null ? [] : [`Retry-After: ${retryAfter} on a queue-full 429`], curl);
  return "done";
}
