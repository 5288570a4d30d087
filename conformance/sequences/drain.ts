/**
 * The end of a sequence: each job it started, still running, polled by its creator until a terminal
 * status (or the declared poll timeout); those that end join the jobs later sequences poll again.
 */
import { pollJob, readCredits } from "./commands.ts";
import type { Sequence } from "./sequence.ts";

export async function drain(sequence: Sequence): Promise<void> {
  const { phase } = sequence;
  const { session } = phase;
  const deadline = Date.now() + session.config.poll.timeoutSeconds * 1000;
  // Each job once more by its creator, ended or not: an end seen by another key is seen again (it stays).
  for (const job of sequence.jobs.filter((candidate) => !candidate.outlasting))
    await pollJob(sequence, job, job.party, "end");
  for (;;) {
    const open = sequence.jobs.filter((job) => job.terminal === null && !job.outlasting);
    if (open.length === 0 || Date.now() > deadline) break;
    for (const job of open) await pollJob(sequence, job, job.party, "end");
    if (sequence.jobs.some((job) => job.terminal === null && !job.outlasting))
      await session.sleep(Math.min(...open.map((job) => session.pollIntervalMs(job.poll))));
  }
  // What the ended jobs were charged, and what their holds released, as the balance shows it.
  if (sequence.jobs.length) {
    const home = phase.of(phase.home);
    await readCredits(sequence, home[sequence.number % home.length]!, deadline);
  }
  for (const job of sequence.jobs) (job.terminal === null ? phase.left : phase.ended).push(job);
}

/** After a failure: the sequence's running jobs polled by their creators, unjudged, until they end, so the next sequence starts settled. */
export async function settle(sequence: Sequence): Promise<void> {
  const { phase } = sequence;
  const { session } = phase;
  const deadline = Date.now() + session.config.poll.timeoutSeconds * 1000;
  const { terminal } = session.contract.model.jobStatus;
  let open = sequence.jobs.filter((job) => job.terminal === null && !job.outlasting);
  while (open.length && Date.now() < deadline) {
    for (const job of open) {
      const exchange = await phase.client(job.party).send(job.poll, sequence.pollSpec(job, job.party));
      const status = String((exchange.json as { status?: unknown } | undefined)?.status);
      if (exchange.status === 200 && terminal.includes(status)) job.terminal = status;
    }
    open = open.filter((job) => job.terminal === null);
    if (open.length) await session.sleep(session.pollIntervalMs(open[0]!.poll));
  }
  phase.left.push(...sequence.jobs.filter((job) => job.terminal === null));
}
