/**
 * The media inputs a sequence sends where a price reads their seconds: the declared ones
 * (`mediaInputs`), whose seconds the target measures as declared, so that the price is exact.
 */
import type { Contract, ContractOperation } from "../../contract/contract.ts";
import type { Body } from "../../contract/bodies/near-misses.ts";
import type { TargetConfig } from "../config.ts";

/** The seconds the target measures for the declared media inputs a body sends, by field. */
export function mediaSeconds(
  inputs: ReadonlyArray<{ url: string; seconds?: number }>,
  body: Body,
): Record<string, number | number[]> | undefined {
  const seconds = new Map(inputs.flatMap((input) => (input.seconds !== undefined ? [[input.url, input.seconds]] : [])));
  const found: Record<string, number | number[]> = {};
  for (const [field, value] of Object.entries(body)) {
    if (typeof value === "string" && seconds.has(value)) found[field] = seconds.get(value)!;
    else if (
      Array.isArray(value) &&
      value.length &&
      value.every((item) => typeof item === "string" && seconds.has(item))
    )
      found[field] = value.map((item) => seconds.get(item as string)!);
  }
  return Object.keys(found).length ? found : undefined;
}

/**
 * `body` with each field whose seconds its price reads sent a declared media input (`mediaInputs`)
 * of the field's kind and within its limits (the `index`th that fits), so that its price is exact;
 * a field no declared input fits is left as it is (its price then unknown). A field the body leaves
 * out is sent too where the whole price is per second of it (MC-A's video, LS-A's audio): without
 * it the job has no price, and whether the service takes such a body is not shown (the schema's
 * requiredness), so the phase does not send it to judge the answer.
 */
export function withDeclaredMedia(
  config: Pick<TargetConfig, "mediaInputs">,
  contract: Contract,
  op: ContractOperation,
  body: Body,
  index: number,
): { body: Body; declared: boolean } {
  const table = contract.model.priceTables[op.path];
  const properties = (op.requestSchema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const sent: Body = { ...body };
  let declared = false;
  const components = table?.pricing?.components ?? [];
  const wholePriceOf = (field: string) =>
    components.length > 0 &&
    components.every(
      (component) =>
        component.per !== undefined && "mediaSeconds" in component.per && component.per.mediaSeconds === field,
    );
  for (const [field, rule] of Object.entries(table?.media ?? {})) {
    if (sent[field] === undefined && !wholePriceOf(field)) continue;
    const kind = (properties[field]?.["x-media"] as { kind?: string } | undefined)?.kind;
    // The field's limits, and those a condition on another field of the body sets (MC-A's 10 s with one orientation).
    const conditional = (rule.conditionalLimits ?? [])
      .filter(({ when }) => "field" in when && body[when.field] === (when as { equals?: unknown }).equals)
      .map(({ limits }) => limits.maxDurationSeconds ?? Infinity);
    const most = Math.min(
      rule.maxDurationSeconds ?? Infinity,
      rule.maxCombinedDurationSeconds ?? Infinity,
      ...conditional,
    );
    const fits = (config.mediaInputs ?? []).filter(
      (input) =>
        input.kind === kind &&
        input.seconds !== undefined &&
        input.seconds >= (rule.minDurationSeconds ?? 0) &&
        input.seconds <= most,
    );
    const input = fits[index % Math.max(fits.length, 1)];
    if (!input) continue;
    sent[field] = rule.list ? [input.url] : input.url;
    declared = true;
  }
  return { body: sent, declared };
}
