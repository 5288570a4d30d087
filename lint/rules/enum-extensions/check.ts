import type { Finding, HouseRule } from "../../finding.ts";
import { allSchemas } from "../../schema-walk.ts";

const DESCRIPTIONS = "x-enumDescriptions";
const TERMINAL = "x-terminal-values";

/** x-enumDescriptions keys are exactly the enum's values; x-terminal-values are values of the enum. */
const rule: HouseRule = {
  description:
    "Redoc renders x-enumDescriptions per enum value, and the client stops polling on x-terminal-values, so their keys and values are exactly values of the enum they sit beside.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const { schema, path } of allSchemas(doc)) {
      const described = schema[DESCRIPTIONS];
      const terminal = schema[TERMINAL];
      if (described === undefined && terminal === undefined) continue;
      if (!Array.isArray(schema.enum)) {
        findings.push({
          path,
          message: `${described === undefined ? TERMINAL : DESCRIPTIONS} sits on a schema without enum: move it beside the enum it describes.`,
        });
        continue;
      }
      const values = schema.enum.map(String);
      if (typeof described === "object" && described !== null) {
        const keys = Object.keys(described);
        const missing = values.filter((value) => !keys.includes(value));
        const extra = keys.filter((key) => !values.includes(key));
        if (missing.length > 0)
          findings.push({
            path: [...path, DESCRIPTIONS],
            message: `${DESCRIPTIONS} lacks the enum values ${missing.join(", ")}: add a description for each.`,
          });
        if (extra.length > 0)
          findings.push({
            path: [...path, DESCRIPTIONS],
            message: `${DESCRIPTIONS} has keys that are not enum values: ${extra.join(", ")}. Remove them or correct their spelling.`,
          });
      }
      const strays = (Array.isArray(terminal) ? terminal.map(String) : []).filter((value) => !values.includes(value));
      if (strays.length > 0)
        findings.push({
          path: [...path, TERMINAL],
          message: `${TERMINAL} lists ${strays.join(", ")}, which are not enum values: list only values of the enum.`,
        });
    }
    return findings;
  },
};

export default rule;
