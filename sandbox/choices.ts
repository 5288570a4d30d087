/**
 * The sandbox's answers to what the specification leaves open (behaviour/choices.ts): outcomes and
 * media durations read from markers in the request's own strings (markers.ts), jobs that run the
 * area's typical duration (else the config's) on the sandbox clock's speed, and ids with a random
 * part, so that no client can guess another's.
 */
import type { Choices, JobTiming } from "../behaviour/choices.ts";
import type { AreaModel, ServiceModel } from "../model/service-model.ts";
import type { SandboxConfig } from "./config.ts";
import { durationIn, outcomeOf, priceFacts } from "./markers.ts";

/** Run time and retention of an area's jobs: the description's figures where shown, else the config's, on the sandbox clock's speed. */
export function timingOf(area: AreaModel, config: Pick<SandboxConfig, "clock" | "jobs">): JobTiming {
  const seconds = area.poll.typicalDurationSeconds?.min ?? config.jobs.defaultDurationSeconds;
  const hours = area.poll.retention?.hours ?? config.jobs.defaultRetentionHours;
  const { speed } = config.clock;
  return { runMs: (seconds * 1000) / speed, retentionMs: (hours * 3_600_000) / speed };
}

export function sandboxChoices(model: ServiceModel, config: SandboxConfig): Choices {
  return {
    outcome: (body) => outcomeOf(model, body),
    mediaSeconds: durationIn,
    defaultMediaSeconds: config.media.defaultDurationSeconds,
    priceFacts,
    timing: (area) => timingOf(area, config),
    // The sandbox's reading: an account's failures, whichever of its keys sent them; any unsuccessful end.
    cooldownScope: "account",
    cooldownCounts: "unsuccessful",
    // The name every other video result of the description has (videos, motion control, depth maps).
    unshownResultField: "video_url",
    jobId: (prefix, integer, sequence) =>
      integer
        ? String(sequence)
        : `${prefix}${sequence.toString(36).padStart(6, "0")}${Math.random().toString(36).slice(2, 8)}`,
  };
}
