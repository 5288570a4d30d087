import { RATE_LIMIT_HEADER_PREFIX } from "../../conventions.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { isObject, refOf } from "../../refs.ts";
import { responseDefinitions } from "../../routes.ts";

/**
 * Every response declares every rate-limit header the description uses (the
 * `X-RateLimit-*` names found on any response), each as a $ref to the shared header component.
 */
const rule: HouseRule = {
  description:
    "The service sends X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset on every response; each response declares all of them through the shared header components.",
  check: (doc) => {
    const all = responseDefinitions(doc);
    // For each header name, the header component the responses refer to (the fix to suggest).
    const shared = new Map<string, string>();
    for (const { node } of all) {
      for (const [name, header] of Object.entries(isObject(node.headers) ? node.headers : {})) {
        const ref = refOf(header);
        if (name.startsWith(RATE_LIMIT_HEADER_PREFIX) && (ref !== undefined || !shared.has(name)))
          shared.set(name, ref ?? "");
      }
    }
    const findings: Finding[] = [];
    for (const { node, path } of all) {
      const headers = isObject(node.headers) ? node.headers : {};
      for (const [name, ref] of shared) {
        const fix = ref
          ? `add headers.${name}: {$ref: '${ref}'}`
          : `declare headers.${name} as a shared header component`;
        if (headers[name] === undefined) {
          findings.push({
            path,
            message: `Response lacks the ${name} header: every response declares ${[...shared.keys()].join(", ")}; ${fix}.`,
          });
        } else if (refOf(headers[name]) === undefined) {
          findings.push({
            path: [...path, "headers", name],
            message: `Header ${name} is declared inline: ${fix} instead, so it is defined once.`,
          });
        }
      }
    }
    return findings;
  },
};

export default rule;
