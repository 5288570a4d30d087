import { operations } from "../../../model/document.ts";
import type { Finding, HouseRule, JsonPath } from "../../finding.ts";
import { isObject } from "../../refs.ts";
import { createRoutes, routes } from "../../routes.ts";
import { tooManyVariantNames } from "../../shared-429.ts";

const LIMITS = "x-limits";
const FAMILY = "x-model-family";

/**
 * x-limits ties each limit to the 429 variant that answers when it bites: each variant it names is
 * a variant of the shared 429 body, and each variant is named. x-limits.uploads names an
 * operation, and x-model-family (the cooldown's family) is what x-limits.cooldown names. The
 * shape of x-limits itself is the extensions rule's.
 */
const rule: HouseRule = {
  description:
    "The client, the mock and the conformance suite react to a 429 by the limit whose variant it is, find the uploads route by x-limits.uploads.operationId, and apply the cooldown to the create routes of x-limits.cooldown's family (x-model-family): each name in x-limits names what exists.",
  check: (doc) => {
    const limits = doc.info[LIMITS];
    if (!isObject(limits)) {
      return [
        {
          path: ["info"],
          message: `info has no ${LIMITS}: add the specification's service-wide limits, each with the 429 variant that answers when it bites (docs/extensions.md#x-limits).`,
        },
      ];
    }
    const at: JsonPath = ["info", LIMITS];
    const findings: Finding[] = [];
    const variants = tooManyVariantNames(doc);
    const named = new Set<string>();
    for (const [entry, limit] of Object.entries(limits)) {
      const variant = isObject(limit) ? limit.variant : undefined;
      if (typeof variant !== "string") continue;
      named.add(variant);
      if (doc.components.schemas?.[variant] === undefined) {
        findings.push({
          path: [...at, entry, "variant"],
          message: `${LIMITS}.${entry}.variant names ${variant}, which components/schemas lacks: correct it to the schema of the 429 body variant that answers when this limit bites.`,
        });
      } else if (!variants.includes(variant)) {
        findings.push({
          path: [...at, entry, "variant"],
          message: `${LIMITS}.${entry}.variant names ${variant}, which is not a variant of the shared 429 body (${variants.join(", ")}): correct it to one of them, or add ${variant} to the body's union.`,
        });
      }
    }
    for (const variant of variants.filter((name) => !named.has(name))) {
      findings.push({
        path: at,
        message: `The 429 variant ${variant} answers for no limit: set it as the variant of the ${LIMITS} entry whose limit it answers for.`,
      });
    }
    const uploads = isObject(limits.uploads) ? limits.uploads.operationId : undefined;
    if (typeof uploads === "string" && !operations(doc).some(({ operation }) => operation.operationId === uploads)) {
      findings.push({
        path: [...at, "uploads", "operationId"],
        message: `${LIMITS}.uploads.operationId names ${uploads}, which no operation has: correct it to the operationId of the uploads route.`,
      });
    }
    const family =
      isObject(limits.cooldown) && typeof limits.cooldown.family === "string" ? limits.cooldown.family : undefined;
    const creates = new Set(createRoutes(doc).map(({ where }) => where.join("/")));
    let familyUsed = false;
    for (const { method, path, where, operation } of routes(doc)) {
      const own = operation[FAMILY];
      if (own === undefined) continue;
      const route = `${method.toUpperCase()} ${path}`;
      if (!creates.has(where.join("/"))) {
        findings.push({
          path: [...where, FAMILY],
          message: `${route} is not a create route, yet carries ${FAMILY}: remove it, or move it to the create operations of the family's models.`,
        });
      } else if (own !== family) {
        findings.push({
          path: [...where, FAMILY],
          message: `${route}: ${FAMILY} "${String(own)}" is not the family ${LIMITS}.cooldown names (${family ?? "none"}): correct it, or remove it where no rule of the specification names the model's family.`,
        });
      } else {
        familyUsed = true;
      }
    }
    if (family !== undefined && !familyUsed) {
      findings.push({
        path: [...at, "cooldown", "family"],
        message: `${LIMITS}.cooldown.family names ${family}, which no create operation's ${FAMILY} carries: add ${FAMILY}: ${family} to the create operations of its models, or correct the name.`,
      });
    }
    return findings;
  },
};

export default rule;
