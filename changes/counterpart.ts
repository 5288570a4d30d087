/**
 * Whether the object at a JSON pointer of one description is still there in another: a "not
 * shown" marker that disappears with its field or route was not stated, it went away. Parameters
 * are found by `in` and `name`, since their array positions shift when one is added or removed.
 */
import { deref, type OpenApiDocument } from "../model/document.ts";
import { isObject } from "./schema-shape.ts";

function parameterKey(doc: OpenApiDocument, item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const parameter = deref(doc, item as { in?: string; name?: string } | { $ref: string }) as {
    in?: string;
    name?: string;
  };
  return `${parameter.in} ${parameter.name}`;
}

export function hasCounterpart(from: OpenApiDocument, to: OpenApiDocument, pointer: string): boolean {
  let [here, there]: [unknown, unknown] = [from, to];
  let parent = "";
  for (const raw of pointer.replace(/^#\//, "").split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(here) && Array.isArray(there)) {
      const index = Number(segment);
      const key = parent === "parameters" ? parameterKey(from, here[index]) : undefined;
      [here, there] = [
        here[index],
        key === undefined ? there[index] : there.find((item) => parameterKey(to, item) === key),
      ];
    } else if (isObject(here) && isObject(there)) {
      [here, there] = [here[segment], there[segment]];
    } else {
      return false;
    }
    if (there === undefined) return false;
    parent = segment;
  }
  return true;
}
