import type { OpenApiDocument } from "../../../model/document.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { follow, refOf } from "../../refs.ts";
import { schemaRoots, subschemas, type SchemaNode } from "../../schema-walk.ts";

function isDescribed(doc: OpenApiDocument, { schema, path }: SchemaNode): boolean {
  return typeof schema.description === "string" || typeof follow(doc, schema, path)?.node.description === "string";
}

/** Every schema of a root and of the components it refers to, transitively. */
function reachable(doc: OpenApiDocument, root: SchemaNode): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  const seen = new Set<string>();
  const visit = (start: SchemaNode): void => {
    for (const node of subschemas(start.schema, start.path)) {
      nodes.push(node);
      const ref = refOf(node.schema);
      const target = ref !== undefined && !seen.has(ref) ? follow(doc, node.schema, node.path) : undefined;
      if (ref !== undefined && target) {
        seen.add(ref);
        visit({ schema: target.node, path: target.path });
      }
    }
  };
  visit(root);
  return nodes;
}

/**
 * Every property and every enum has a description (a $ref may take its target's). A
 * property in an applicator branch (allOf, if/then, anyOf, ...) that constrains a field described
 * elsewhere in the same schema needs none: the docs show the field's declaration.
 */
const rule: HouseRule = {
  description: "Every property and every enum is described; the docs and the client's comments show nothing else.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const root of schemaRoots(doc)) {
      const nodes = reachable(doc, root);
      const described = new Set(
        nodes
          .filter((node) => node.propertyName !== undefined && isDescribed(doc, node))
          .map((node) => node.propertyName),
      );
      for (const node of subschemas(root.schema, root.path)) {
        const { schema, path, propertyName, inBranch } = node;
        const isEnum = Array.isArray(schema.enum);
        if ((propertyName === undefined && !isEnum) || isDescribed(doc, node)) continue;
        if (inBranch && propertyName !== undefined && described.has(propertyName)) continue;
        const what = propertyName === undefined ? "Enum" : `Property "${propertyName}"`;
        const fix = isEnum
          ? "what the value chooses (and x-enumDescriptions where each value has its own meaning)"
          : "what the field holds";
        findings.push({ path, message: `${what} has no description: add a description saying ${fix}.` });
      }
    }
    return findings;
  },
};

export default rule;
