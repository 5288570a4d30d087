import { labelPrefix } from "../../../model/labels.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { follow, isObject, type Json } from "../../refs.ts";
import { createRoutes, routes } from "../../routes.ts";

const JSON_MEDIA = "application/json";

function hasExamples(media: unknown): boolean {
  return isObject(media) && isObject(media.examples) && Object.keys(media.examples).length > 0;
}

/**
 * A create operation's id is create<Area><label> (createImageIA, createModel3dDA), <Area> its
 * tag's x-area.name; every JSON request body and every JSON success response has named examples.
 */
const rule: HouseRule = {
  description:
    "Create operation ids are create<Area><label> (createImageIA), the client's method names; every JSON request body and success response has named examples, which the docs show and the mock serves.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const { path, where, operation, label, area } of createRoutes(doc)) {
      // A route without a label or area, or whose label is not its area's, is the paths rule's.
      if (label === undefined || area === undefined || labelPrefix(label) !== area.labelPrefix) continue;
      const expected = `create${area.name}${label.replace("-", "")}`;
      if (operation.operationId !== expected) {
        findings.push({
          path: [...where, "operationId"],
          message: `POST ${path}: rename the operationId to ${expected} (create<Area><label> for x-model-label ${label}).`,
        });
      }
    }
    for (const { method, path, where, operation } of routes(doc)) {
      const route = `${method.toUpperCase()} ${path}`;
      const body = follow(doc, operation.requestBody, [...where, "requestBody"]);
      const request = (body?.node.content as Json | undefined)?.[JSON_MEDIA];
      if (body && request !== undefined && !hasExamples(request)) {
        findings.push({
          path: [...body.path, "content", JSON_MEDIA],
          message: `${route}: the request body has no examples: add named examples (examples: {<name>: {summary, value}}) covering its modes.`,
        });
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const target = follow(doc, response, [...where, "responses", status]);
        const content = (target?.node.content as Json | undefined)?.[JSON_MEDIA];
        if (target && status.startsWith("2") && content !== undefined && !hasExamples(content)) {
          findings.push({
            path: [...target.path, "content", JSON_MEDIA],
            message: `${route}: the ${status} response has no examples: add named examples (examples: {<name>: {summary, value}}).`,
          });
        }
      }
    }
    return findings;
  },
};

export default rule;
