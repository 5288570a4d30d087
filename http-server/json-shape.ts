/**
 * The shape of a JSON text read without parsing it (strings skipped): how deep its arrays and
 * objects nest, and how many items and members they hold. A server bounds both before it parses
 * or validates a body, so that a body within the size limit (ten megabytes of `[0,0,0,…]`) still
 * costs little: the work and memory of parsing and of a validator reporting every error grow with
 * the values, not with the bytes.
 */
export interface JsonShape {
  /** The deepest nesting of arrays and objects. */
  readonly depth: number;
  /** Array items and object members, all levels together (an upper bound: a trailing comma counts too). */
  readonly entries: number;
}

/** `text` as bytes (a body as read) or as a string (a body as decoded): the structural characters are ASCII in both. */
export function jsonShape(text: Uint8Array | string): JsonShape {
  const bytes =
    typeof text === "string"
      ? { length: text.length, at: (index: number) => text.charCodeAt(index) }
      : { length: text.length, at: (index: number) => text[index]! };
  let depth = 0;
  let deepest = 0;
  let entries = 0;
  let inString = false;
  let empty = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes.at(index);
    if (inString) {
      if (byte === 0x5c) index += 1;
      else if (byte === 0x22) inString = false;
      continue;
    }
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    // The first entry of a container is counted at its first byte, the others at their commas.
    if (empty && byte !== 0x5d && byte !== 0x7d) entries += 1;
    empty = false;
    if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      deepest = Math.max(deepest, ++depth);
      empty = true;
    } else if (byte === 0x5d || byte === 0x7d) depth -= 1;
    else if (byte === 0x2c) entries += 1;
  }
  return { depth: deepest, entries };
}
