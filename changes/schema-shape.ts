/** Small helpers for reading schemas as plain JSON: equality that ignores key order, and a readable label. */
export type Schema = Record<string, unknown>;

export const isObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON with object keys sorted, so two equal values give the same text whatever their key order. */
export function canonical(value: unknown): string {
  if (value === undefined) return "undefined";
  return JSON.stringify(value, (_, node: unknown) =>
    isObject(node)
      ? Object.fromEntries(
          Object.keys(node)
            .sort()
            .map((key) => [key, node[key]]),
        )
      : node,
  );
}

/** What a combinator branch is, for a reader: the component it references, its title, or its description. */
export function schemaLabel(node: unknown): string {
  if (!isObject(node)) return JSON.stringify(node);
  if (typeof node.$ref === "string") return node.$ref.split("/").at(-1) ?? node.$ref;
  const text =
    typeof node.title === "string"
      ? node.title
      : typeof node.description === "string"
        ? node.description
        : canonical(node);
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
