/**
 * "Not observable" is said of a rule only when no client can see it: a rule whose words name a field
 * of a response (`audio_url`, `restriction_reason`) or an HTTP status is about an answer, which a
 * client sees, so the catalogue must not call it unobservable. The field names and statuses are the
 * description's: every property of a response schema, every documented status.
 */
import { describe, expect, it } from "vitest";
import { deref, operations, type JsonSchema, type ResponseObject } from "../../model/document.ts";
import { readCatalogueSource } from "../../spec/catalogue-source.ts";
import type { Rule } from "../../spec/catalogue.ts";
import { doc } from "../support/description.ts";

/** Every property name of every response schema, nested ones and those of referenced schemas too. */
function responseFields(): Set<string> {
  const names = new Set<string>();
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (typeof node !== "object" || node === null || seen.has(node)) return;
    seen.add(node);
    const schema = deref<JsonSchema>(doc, node as JsonSchema);
    if (schema !== node) return walk(schema);
    if (typeof schema.properties === "object" && schema.properties !== null)
      for (const name of Object.keys(schema.properties)) names.add(name);
    for (const child of Object.values(schema)) {
      if (Array.isArray(child)) child.forEach(walk);
      else walk(child);
    }
  };
  for (const { operation } of operations(doc))
    for (const response of Object.values(operation.responses))
      for (const media of Object.values(deref<ResponseObject>(doc, response).content ?? {})) walk(media.schema);
  return names;
}

/** Every HTTP status some operation documents. */
const statuses = new Set(operations(doc).flatMap(({ operation }) => Object.keys(operation.responses)));
const fields = responseFields();

/** What an unobservable rule's words name that a client sees in an answer. */
function namedInAnswers(rule: Pick<Rule, "words">): string[] {
  const named = [...rule.words.matchAll(/`([A-Za-z_][\w.]*)`/g)]
    .map((match) => match[1]!.split(".")[0]!)
    .filter((name) => fields.has(name))
    .map((name) => `the response field ${name}`);
  const status = [...rule.words.matchAll(/\b(?:HTTP\s+)?(\d{3})\b/g)]
    .filter((match) => statuses.has(match[1]!) || match[0].startsWith("HTTP"))
    .map((match) => `the status ${match[1]}`);
  return [...named, ...status];
}

describe("rules the catalogue calls not observable", () => {
  it("name no response field and no status: a client sees those in an answer", () => {
    const problems = readCatalogueSource()
      .rules.filter((rule) => rule.observable === false)
      .flatMap((rule) => namedInAnswers(rule).map((what) => `${rule.id} names ${what}`));
    expect(problems).toEqual([]);
  });

  it("would catch a rule about an answer called unobservable", () => {
    expect(fields.has("audio_url") && fields.has("restriction_reason") && fields.has("files")).toBe(true);
    expect(
      namedInAnswers({
        words:
          "Video-to-music: a licensed soundtrack composed for an input video of up to 360 s; the result is `audio_url` (MP3 or WAV).",
      }),
    ).toEqual(["the response field audio_url"]);
    expect(namedInAnswers({ words: "Missing or invalid key: HTTP 401 with an Error body." })).toEqual([
      "the status 401",
    ]);
    expect(namedInAnswers({ words: "Transfers the motion of a reference video onto a character image." })).toEqual([]);
    // A figure that is no documented status is no status (a duration, a size).
    expect(namedInAnswers({ words: "an input video of up to 360 s at 720p" })).toEqual([]);
  });
});
