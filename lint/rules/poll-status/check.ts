import type { OpenApiDocument } from "../../../model/document.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { follow, isObject, refOf, type Json } from "../../refs.ts";
import { pollRoutes } from "../../routes.ts";

const STATUS = "status";
const TERMINAL = "x-terminal-values";

/** The job-status enum: the schema component that lists the terminal values. */
export function jobStatusComponent(doc: OpenApiDocument): string | undefined {
  const found = Object.entries(doc.components.schemas ?? {}).find(([, schema]) => schema[TERMINAL] !== undefined);
  return found && `#/components/schemas/${found[0]}`;
}

/** `required` and `properties` of a schema together with those of its allOf parts. */
function shape(doc: OpenApiDocument, schema: Json): { required: Set<string>; properties: Json } {
  const parts = [
    schema,
    ...(Array.isArray(schema.allOf) ? schema.allOf : []).map((part) => follow(doc, part, [])?.node ?? {}),
  ];
  const required = new Set(parts.flatMap((part) => (Array.isArray(part.required) ? (part.required as string[]) : [])));
  const properties = Object.assign(
    {},
    ...parts.map((part) => (isObject(part.properties) ? part.properties : {})),
  ) as Json;
  return { required, properties };
}

/** Every poll result (the 200 of a poll route) requires status and takes it from the job-status enum. */
const rule: HouseRule = {
  description:
    "The client polls until status is terminal, so every poll result requires status and takes it from the shared JobStatus enum (the schema with x-terminal-values).",
  check: (doc) => {
    const findings: Finding[] = [];
    const jobStatus = jobStatusComponent(doc);
    if (jobStatus === undefined) {
      return [
        {
          path: ["components", "schemas"],
          message: `No job-status enum: add ${TERMINAL} with the terminal statuses to the shared JobStatus schema.`,
        },
      ];
    }
    for (const { path, where, operation } of pollRoutes(doc)) {
      const response = follow(doc, operation.responses?.["200"], [...where, "responses", "200"]);
      if (response === undefined) {
        findings.push({
          path: [...where, "responses"],
          message: `GET ${path} has no 200: a poll route answers 200 with the job's status and result.`,
        });
        continue;
      }
      for (const [mediaType, media] of Object.entries((response.node.content ?? {}) as Record<string, Json>)) {
        const schema = follow(doc, media.schema, [...response.path, "content", mediaType, "schema"]);
        if (schema === undefined) continue;
        const { required, properties } = shape(doc, schema.node);
        if (!required.has(STATUS)) {
          findings.push({
            path: schema.path,
            message: `The poll result of GET ${path} must require "${STATUS}": add it to required (the specification says status is present in every poll response).`,
          });
        }
        if (refOf(properties[STATUS]) !== jobStatus) {
          findings.push({
            path: schema.path,
            message: `The poll result of GET ${path} must take "${STATUS}" from the job-status enum: set properties.${STATUS} to $ref: '${jobStatus}'.`,
          });
        }
      }
    }
    return findings;
  },
};

export default rule;
