import type { Check, Finding } from "../finding.ts";
import { AREAS } from "../areas.ts";
import { createRoutes, pollRoutes } from "../routes.ts";

const PREFIX = "/v1/";
const POLL_PARAMETER = "{id}";

/**
 * Rule 1: every path starts with /v1/; a create path is /v1/<area>/<slug>, the area that of its
 * label's prefix and the slug the label's placeholder slug (or its real slug from the slug map);
 * a poll path is /v1/<area>/{id}.
 */
export const checkPaths: Check = (doc, { slugMap }) => {
  const findings: Finding[] = [];
  for (const path of Object.keys(doc.paths)) {
    if (!path.startsWith(PREFIX)) {
      findings.push({ path: ["paths", path], message: `Path "${path}" must start with ${PREFIX}: every route of the service is under the /v1 prefix. Rename it to ${PREFIX}${path.replace(/^\//, "")}.` });
    }
  }
  for (const { path, method, where, label, area } of createRoutes(doc)) {
    const route = `${method.toUpperCase()} ${path}`;
    if (label === undefined) {
      findings.push({ path: where, message: `${route} is a create route but has no x-model-label: add the model's label from the specification (e.g. x-model-label: ${Object.keys(AREAS)[0]}-A).` });
      continue;
    }
    if (area === undefined) {
      findings.push({ path: [...where, "x-model-label"], message: `${route}: x-model-label "${label}" has no known area prefix; use one of ${Object.keys(AREAS).join(", ")} (the area table is lint/areas.ts).` });
      continue;
    }
    const placeholder = label.toLowerCase();
    const expected = `${PREFIX}${area.segment}/${slugMap[placeholder] ?? placeholder}`;
    if (path !== expected) {
      findings.push({ path: where, message: `${route} (x-model-label ${label}) must be at ${expected}: a create path is /v1/<area>/<slug>, with the area of the label's prefix and the slug of the slug table. Move the route, or correct x-model-label.` });
    }
  }
  const areas = Object.values(AREAS).map((area) => area.segment);
  for (const { path, where } of pollRoutes(doc)) {
    const [, version, segment, parameter, ...rest] = path.split("/");
    if (`/${version}/` !== PREFIX || !areas.includes(segment ?? "") || parameter !== POLL_PARAMETER || rest.length > 0) {
      findings.push({ path: where, message: `GET ${path} polls a job but is not GET /v1/<area>/${POLL_PARAMETER} with <area> one of ${areas.join(", ")}. Rename it.` });
    }
  }
  return findings;
};
