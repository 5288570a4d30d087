import { CREATE_ERROR_RESPONSES } from "../../conventions.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { follow, isObject, refOf, type Json } from "../../refs.ts";
import { registryOf } from "../../registry.ts";
import { routes } from "../../routes.ts";

const TOO_MANY_REQUESTS = "429";
const RETRY_AFTER = "Retry-After";
const RETRY_AFTER_FLAG = "x-retry-after";

/**
 * Every 429 is the one shared response; it declares Retry-After, and its body is a union
 * of the 429 variants, each saying with x-retry-after whether it sends the header (the shared
 * response cannot say it per variant) and shown by a named example, so clients see every case.
 */
const rule: HouseRule = {
  description:
    "Four conditions answer 429 and each needs a different reaction from the client; every 429 is the one shared response that declares Retry-After and shows every variant with an example.",
  check: (doc) => {
    const findings: Finding[] = [];
    const shared = `#/components/responses/${CREATE_ERROR_RESPONSES[TOO_MANY_REQUESTS]}`;
    for (const { method, path, where, operation } of routes(doc)) {
      const response = operation.responses?.[TOO_MANY_REQUESTS];
      if (response !== undefined && refOf(response) !== shared) {
        findings.push({ path: [...where, "responses", TOO_MANY_REQUESTS], message: `${method.toUpperCase()} ${path}: set the 429 to $ref: '${shared}', the shared response with the four 429 variants.` });
      }
    }
    const target = follow(doc, { $ref: shared }, []);
    if (target === undefined) return findings;
    const { node, path } = target;
    if (!isObject(node.headers) || node.headers[RETRY_AFTER] === undefined) {
      findings.push({ path, message: `The shared 429 must declare the ${RETRY_AFTER} header (seconds to wait): add headers.${RETRY_AFTER}.` });
    }
    for (const [mediaType, media] of Object.entries((node.content ?? {}) as Record<string, Json>)) {
      const schema = follow(doc, media.schema, [...path, "content", mediaType, "schema"]);
      const variants = [schema?.node.anyOf, schema?.node.oneOf].find(Array.isArray);
      if (schema === undefined || variants === undefined) {
        findings.push({ path: [...path, "content", mediaType, "schema"], message: "The shared 429 body is not a union: use anyOf (or oneOf) with one branch per 429 condition." });
        continue;
      }
      const variantsKey = variants === schema.node.anyOf ? "anyOf" : "oneOf";
      variants.forEach((variant, index) => {
        const definition = follow(doc, variant, [...schema.path, variantsKey, index]);
        if (definition !== undefined && typeof definition.node[RETRY_AFTER_FLAG] !== "boolean") {
          findings.push({ path: definition.path, message: `The 429 variant ${refOf(variant) ?? `#${index}`} does not say whether it sends ${RETRY_AFTER}: add ${RETRY_AFTER_FLAG}: true if a response with this body carries the header, false if not.` });
        }
      });
      const registry = registryOf(doc);
      if (registry instanceof Error) continue;
      const examples = Object.values((media.examples ?? {}) as Record<string, unknown>).map((example) => follow(doc, example, [])?.node.value);
      variants.forEach((variant, index) => {
        let validate: (value: unknown) => boolean;
        try {
          validate = registry.compile(variant as Json);
        } catch {
          return; // a variant that does not compile is the schemas-compile rule's finding
        }
        if (!examples.some((value) => validate(value))) {
          findings.push({ path: [...schema.path, variantsKey, index], message: `The 429 variant ${refOf(variant) ?? `#${index}`} has no example: add a named example of it to the shared 429's examples.` });
        }
      });
    }
    return findings;
  },
};

export default rule;
