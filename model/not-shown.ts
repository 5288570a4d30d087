/**
 * Collects every `x-not-shown` marker of the bundled description with a readable location, in
 * document order: for the docs' "what the specification leaves unstated" page and the change report.
 */
import { HTTP_METHODS, type OpenApiDocument } from "./document.ts";

export interface NotShownMarker {
  /** JSON pointer of the object that carries the marker. */
  pointer: string;
  /** What the marker belongs to: "Service", "POST /v1/images/i-d", "Schema JobStatus", ... */
  owner: string;
  /** Where inside the owner: "request body › `size`"; "" when on the owner itself. */
  where: string;
  /** The vocabulary key (`price`, `requiredness`, ...). */
  key: string;
  sentence: string;
}

const COMPONENT_KINDS: Record<string, string> = {
  schemas: "Schema",
  responses: "Response",
  parameters: "Parameter",
  headers: "Header",
  examples: "Example",
  securitySchemes: "Security scheme",
  links: "Link",
};

/** Segments that only say how OpenAPI nests things, not where a reader should look. */
const STRUCTURAL = new Set([
  "content",
  "schema",
  "properties",
  "value",
  "responses",
  "headers",
  "parameters",
  "examples",
  "allOf",
  "anyOf",
  "oneOf",
]);

export function collectNotShown(doc: OpenApiDocument): NotShownMarker[] {
  const found: NotShownMarker[] = [];
  const walk = (node: unknown, path: string[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        walk(item, [...path, String(index)]);
      });
      return;
    }
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-not-shown") {
        for (const [what, sentence] of Object.entries(value as Record<string, string>)) {
          found.push({ pointer: toPointer(path), ...locate(doc, path), key: what, sentence });
        }
      } else {
        walk(value, [...path, key]);
      }
    }
  };
  walk(doc, []);
  return found;
}

function toPointer(path: string[]): string {
  return `#/${path.map((segment) => segment.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

function locate(doc: OpenApiDocument, path: string[]): { owner: string; where: string } {
  const [area, first, second, ...rest] = path;
  if (area === "paths" && first !== undefined) {
    const method = second as (typeof HTTP_METHODS)[number] | undefined;
    if (method && (HTTP_METHODS as readonly string[]).includes(method)) {
      return { owner: `${method.toUpperCase()} ${first}`, where: describe(doc, path.slice(0, 3), rest) };
    }
    return { owner: first, where: describe(doc, path.slice(0, 2), path.slice(2)) };
  }
  if (area === "components" && first !== undefined && second !== undefined) {
    return { owner: `${COMPONENT_KINDS[first] ?? first} ${second}`, where: describe(doc, path.slice(0, 3), rest) };
  }
  if (area === "servers") return { owner: "Server", where: describe(doc, path.slice(0, 2), path.slice(2)) };
  return { owner: "Service", where: describe(doc, path.slice(0, 1), path.slice(1)) };
}

/** Turns the pointer segments below the owner into "request body › `field`" style text. */
function describe(doc: OpenApiDocument, base: string[], rest: string[]): string {
  const parts: string[] = [];
  let node: unknown = base.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], doc);
  let previous = "";
  for (const segment of rest) {
    node = (node as Record<string, unknown>)[segment];
    if (previous === "properties") parts.push(`\`${segment}\``);
    else if (previous === "responses") parts.push(`response ${segment}`);
    else if (previous === "headers") parts.push(`header ${segment}`);
    else if (previous === "parameters") parts.push(`parameter \`${(node as { name?: string }).name ?? segment}\``);
    else if (previous === "examples") parts.push(`example ${segment}`);
    else if (segment === "requestBody") parts.push("request body");
    else if (segment === "items") parts.push("items");
    else if (!STRUCTURAL.has(segment) && !segment.includes("/") && !/^\d+$/.test(segment)) parts.push(segment);
    previous = segment;
  }
  return parts.join(" › ");
}
