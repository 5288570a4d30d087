/**
 * The oracle's answers to what the specification leaves open (behaviour/choices.ts), from the
 * target's declaration: the outcome a create asks for is the declared marker its prompt carries, a
 * media input lasts the seconds the declaration gives for it, an upscale's mode and result size
 * are the declared request's, and a job ends when the target's answers show it ended (its end is
 * left open: ServiceState.endJob). Ids are the model's own; the oracle maps the target's to them.
 */
import type { Choices, Outcome } from "../../behaviour/choices.ts";
import type { ServiceModel } from "../../model/service-model.ts";
import type { OutcomeMarkers, TargetConfig } from "../config.ts";

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Each string of a body, lists included. */
function strings(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  return Object.values(body).flatMap((value) =>
    typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((item) => typeof item === "string") : [],
  );
}

/** The outcome a body's declared marker asks for, or null. */
export function declaredOutcome(model: ServiceModel, markers: OutcomeMarkers, body: unknown): Outcome | null {
  const texts = strings(body);
  const reasons = model.errors.moderation.reasons;
  if (markers.moderation) {
    const [before, after] = markers.moderation.split("{reason}") as [string, string];
    const pattern = new RegExp(`${escapeRegExp(before)}(${reasons.map(escapeRegExp).join("|")})${escapeRegExp(after)}`);
    for (const text of texts) {
      const found = pattern.exec(text);
      if (found) return { moderation: found[1]! };
    }
  }
  for (const status of model.jobStatus.failure) {
    const marker = markers[status as keyof OutcomeMarkers];
    if (marker && texts.some((text) => text.includes(marker))) return { status };
  }
  return null;
}

/** The marker text that asks for `outcome`, or null where the declaration gives none. */
export function markerFor(markers: OutcomeMarkers, outcome: Outcome): string | null {
  if ("moderation" in outcome) return markers.moderation?.replace("{reason}", outcome.moderation) ?? null;
  return markers[outcome.status as keyof OutcomeMarkers] ?? null;
}

/** What a target may have chosen where the specification is silent: the oracle keeps a state for each, until its answers tell. */
const READINGS: ReadonlyArray<Pick<Choices, "cooldownScope" | "cooldownCounts">> = [
  { cooldownScope: "account", cooldownCounts: "unsuccessful" },
  { cooldownScope: "account", cooldownCounts: "failed" },
  { cooldownScope: "key", cooldownCounts: "unsuccessful" },
  { cooldownScope: "key", cooldownCounts: "failed" },
];

/** The oracle's choices for `config`'s target, one per reading of what the specification leaves open. */
export function targetChoices(model: ServiceModel, config: TargetConfig): Choices[] {
  const seconds = new Map(
    (config.mediaInputs ?? []).flatMap((input) => (input.seconds ? [[input.url, input.seconds]] : [])),
  );
  const upscales = (config.upscaleRequests ?? []).map((request) => ({ text: JSON.stringify(request.body), request }));
  const base: Omit<Choices, keyof (typeof READINGS)[number]> = {
    outcome: (body) => declaredOutcome(model, config.outcomeMarkers, body),
    mediaSeconds: (media) => seconds.get(media) ?? null,
    // Never used for a price the oracle holds a target to: a medium of unknown length makes its price unknown.
    defaultMediaSeconds: 0,
    priceFacts: (body, facts) => {
      const declared = upscales.find((upscale) => upscale.text === JSON.stringify(body))?.request;
      if (!declared) return {};
      // The declared upscales are those whose result is 1080p, the only result size whose rates are shown.
      return {
        ...("mode" in facts ? { mode: declared.mode } : {}),
        ...("result_resolution" in facts ? { result_resolution: "1080p" } : {}),
      };
    },
    timing: (area) => ({
      runMs: Number.POSITIVE_INFINITY,
      retentionMs: area.poll.retention ? area.poll.retention.hours * 3_600_000 : Number.POSITIVE_INFINITY,
    }),
    jobId: (prefix, integer, sequence) => (integer ? String(sequence) : `${prefix}${sequence}`),
  };
  return READINGS.map((reading) => ({ ...base, ...reading }));
}
