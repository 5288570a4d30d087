/**
 * What a request asks of the sandbox, read from its own strings so that the typed client and curl
 * can ask alike: an outcome marker anywhere in a string field (a prompt, a media URL), and media
 * durations in media URL fragments.
 *
 *   [sandbox:failed]  [sandbox:timeout]  [sandbox:succeeded]   the job ends in that terminal status
 *   [sandbox:moderation=input_csam]                           the create answers the moderation block
 *   https://host/clip.mp4#duration=12                         the media lasts 12 seconds
 */
import { AskError, type Outcome } from "../behaviour/choices.ts";
import type { ServiceModel } from "../model/service-model.ts";

const MARKER = /sandbox:([a-z_]+)(?:=([a-z_]+))?/g;
const MODERATION = "moderation";
const DURATION = /#(?:[^#]*[&;])?duration=(\d+(?:\.\d+)?)(?:[&;]|$)/;

/** Each string of a body with the field it sits in (`prompt`, `reference_images[1]`). */
function* strings(body: unknown): Generator<[string, string]> {
  if (typeof body !== "object" || body === null) return;
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string") yield [`body.${name}`, value];
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) if (typeof item === "string") yield [`body.${name}[${index}]`, item];
    }
  }
}

/** The outcome a body's marker asks for, or null; a marker naming nothing known is an error. */
export function outcomeOf(model: ServiceModel, body: unknown): Outcome | null {
  let found: Outcome | null = null;
  for (const [field, text] of strings(body)) {
    for (const [marker, word, value] of text.matchAll(MARKER)) {
      const reasons = model.errors.moderation.reasons;
      let outcome: Outcome;
      if (word === MODERATION && value !== undefined && reasons.includes(value)) outcome = { moderation: value };
      else if (value === undefined && word !== undefined && model.jobStatus.terminal.includes(word))
        outcome = { status: word };
      else {
        const asked = [
          ...model.jobStatus.terminal.map((status) => `sandbox:${status}`),
          `sandbox:${MODERATION}=<${reasons.join("|")}>`,
        ];
        throw new AskError(field, `"${marker}" is not a sandbox marker (${asked.join(", ")})`);
      }
      if (found !== null && JSON.stringify(found) !== JSON.stringify(outcome))
        throw new AskError(field, `"${marker}" contradicts an earlier marker`);
      found = outcome;
    }
  }
  return found;
}

/** The duration a media string names in its URL fragment (`#duration=12`), or null. */
export function durationIn(media: string): number | null {
  const match = DURATION.exec(media);
  return match ? Number(match[1]) : null;
}

const HEIGHT = /#(?:[^#]*[&;])?height=(\d+)(?:[&;]|$)/;

/** The sandbox's name for the upscale mode field (`precise` or `creative`), whose name the description does not show. */
export const UPSCALE_MODE_FIELD = "mode";

/**
 * The facts a price reads that the body does not hold (x-pricing's `fact` conditions), as the
 * sandbox derives them: `mode` from its own field UPSCALE_MODE_FIELD, `result_resolution` from the
 * input's `#height=N` times `upscale_factor` (`#height=720` doubled is `1440p`). A fact it cannot
 * derive is left out, and the quote then has no price.
 */
export function priceFacts(
  body: Readonly<Record<string, unknown>>,
  facts: Readonly<Record<string, readonly unknown[]>>,
  mediaFields: readonly string[],
): Record<string, string> {
  const derived: Record<string, string> = {};
  const mode = body[UPSCALE_MODE_FIELD];
  if ("mode" in facts && typeof mode === "string") derived.mode = mode;
  const input = mediaFields.map((field) => body[field]).find((value) => typeof value === "string") as
    | string
    | undefined;
  const height = input === undefined ? null : HEIGHT.exec(input);
  const factor = Number(body.upscale_factor);
  if ("result_resolution" in facts && height && Number.isFinite(factor))
    derived.result_resolution = `${Math.round(Number(height[1]) * factor)}p`;
  return derived;
}
