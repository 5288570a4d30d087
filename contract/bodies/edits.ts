/**
 * Small edits of a request body: set, change or remove the value at an instance path. Negative
 * and near-miss bodies are a valid body with a few edits applied.
 */

export type Json = unknown;
/** An instance path; `*` stands for the first item of an array. */
export type InstancePath = string[];

export interface Edit {
  path: InstancePath;
  /** undefined deletes the property. */
  value?: Json;
  remove?: boolean;
}

export const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function uniqueEdits(edits: Edit[]): Edit[] {
  const seen = new Set<string>();
  return edits.filter((edit) => {
    const key = JSON.stringify(edit);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** All combinations of at most `max` edits touching distinct paths, smallest first. */
export function combinations(edits: Edit[], max: number): Edit[][] {
  const out: Edit[][] = [[]];
  const grow = (start: number, current: Edit[]): void => {
    if (current.length === max) return;
    for (let index = start; index < edits.length; index++) {
      const edit = edits[index] as Edit;
      if (current.some((other) => other.path.join("/") === edit.path.join("/"))) continue;
      const next = [...current, edit];
      out.push(next);
      grow(index + 1, next);
    }
  };
  grow(0, []);
  return out.sort((a, b) => a.length - b.length);
}

export function applyEdits(base: Json, edits: Edit[]): Json {
  let body = structuredClone(base);
  for (const edit of edits) body = applyEdit(body, edit.path, edit);
  return body;
}

export function applyEdit(node: Json, path: InstancePath, edit: Edit): Json {
  if (path.length === 0) return edit.remove ? undefined : structuredClone(edit.value);
  const [head, ...rest] = path as [string, ...string[]];
  if (head === "*") {
    // Stryker disable next-line ArrayDeclaration: where there is no list, the edit's own item replaces or removes the first, whatever stood there
    const array = Array.isArray(node) ? [...node] : [];
    const updated = applyEdit(array[0], rest, edit);
    if (updated === undefined) array.splice(0, 1);
    else array[0] = updated;
    return array;
  }
  const object: Record<string, Json> = isObject(node) ? { ...node } : {};
  const updated = applyEdit(object[head], rest, edit);
  if (updated === undefined) delete object[head];
  else object[head] = updated;
  return object;
}
