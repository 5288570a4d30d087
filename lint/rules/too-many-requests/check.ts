import type { Finding, HouseRule } from "../../finding.ts";
import { follow, isObject, refOf, type Json } from "../../refs.ts";
import { schemaRegistryOf } from "../../schema-registries.ts";
import { routes } from "../../routes.ts";
import { SHARED_429, sharedTooManyRequests, TOO_MANY_REQUESTS } from "../../shared-429.ts";

const RETRY_AFTER = "Retry-After";
const RETRY_AFTER_FLAG = "x-retry-after";

/**
 * Every 429 is the one shared response; it declares Retry-After, and its body is a union
 * of the 429 variants, each saying with x-retry-after whether it sends the header (the shared
 * response cannot say it per variant) and shown by a named example, so clients see every case.
 */
const rule: HouseRule = {
  description:
    "Several conditions answer 429 and each needs a different reaction from the client; every 429 is the one shared response that declares Retry-After and shows every variant with an example.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const { method, path, where, operation } of routes(doc)) {
      const response = operation.responses?.[TOO_MANY_REQUESTS];
      if (response !== undefined && refOf(response) !== SHARED_429) {
        findings.push({
          path: [...where, "responses", TOO_MANY_REQUESTS],
          message: `${method.toUpperCase()} ${path}: set the 429 to $ref: '${SHARED_429}', the shared response with every 429 variant.`,
        });
      }
    }
    const shared = sharedTooManyRequests(doc);
    if (shared === undefined) return findings;
    if (!isObject(shared.node.headers) || shared.node.headers[RETRY_AFTER] === undefined) {
      findings.push({
        path: shared.path,
        message: `The shared 429 must declare the ${RETRY_AFTER} header (seconds to wait): add headers.${RETRY_AFTER}.`,
      });
    }
    const registry = schemaRegistryOf(doc);
    for (const { media, at, union } of shared.bodies) {
      if (union === undefined) {
        findings.push({
          path: at,
          message: "The shared 429 body is not a union: use anyOf (or oneOf) with one branch per 429 condition.",
        });
        continue;
      }
      union.variants.forEach((variant, index) => {
        const definition = follow(doc, variant, [...union.path, union.key, index]);
        if (definition !== undefined && typeof definition.node[RETRY_AFTER_FLAG] !== "boolean") {
          findings.push({
            path: definition.path,
            message: `The 429 variant ${refOf(variant) ?? `#${index}`} does not say whether it sends ${RETRY_AFTER}: add ${RETRY_AFTER_FLAG}: true if a response with this body carries the header, false if not.`,
          });
        }
      });
      if (registry instanceof Error) continue;
      const examples = Object.values((media.examples ?? {}) as Record<string, unknown>).map(
        (example) => follow(doc, example, [])?.node.value,
      );
      union.variants.forEach((variant, index) => {
        let validate: (value: unknown) => boolean;
        try {
          validate = registry.compile(variant as Json);
        } catch {
          return; // a variant that does not compile is the schemas-compile rule's finding
        }
        if (!examples.some((value) => validate(value))) {
          findings.push({
            path: [...union.path, union.key, index],
            message: `The 429 variant ${refOf(variant) ?? `#${index}`} has no example: add a named example of it to the shared 429's examples.`,
          });
        }
      });
    }
    return findings;
  },
};

export default rule;
