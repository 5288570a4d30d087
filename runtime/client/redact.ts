/** Removes the API key from text, parsed bodies and headers before they reach an error. */

/** The shortest piece of a key that is redacted: shorter runs are too common to hide anything. */
const PIECE = 8;

/**
 * Replaces every occurrence of the key (never empty: the options require one), in case a fetch
 * implementation or the service echoes it, and every run of text made of pieces of it at least
 * PIECE characters long: an echo cut short (a body truncated by a lying Content-Length) still
 * shows most of the key otherwise.
 */
export function redact(text: string, apiKey: string): string {
  const size = Math.min(PIECE, apiKey.length);
  const pieces = new Set<string>();
  // Stryker disable next-line ArithmeticOperator: equivalent: pieces past the key's end would be shorter than `size`, and no run of text compared below is
  for (let at = 0; at + size <= apiKey.length; at += 1) {
    pieces.add(apiKey.slice(at, at + size));
  }
  let hidden = "";
  let end = 0;
  // Stryker disable next-line ArithmeticOperator: equivalent: runs past the text's end would be shorter than `size`, and no piece is
  for (let at = 0; at + size <= text.length; at += 1) {
    if (!pieces.has(text.slice(at, at + size))) continue;
    // A run that overlaps or touches the last one extends its [redacted]; the first, at the text's start, has none to extend.
    if (at > end || at === 0) hidden += `${text.slice(end, at)}[redacted]`;
    end = at + size;
  }
  return hidden + text.slice(end);
}

/** A copy of a parsed JSON body with the key redacted from every string in it. */
export function redactBody(value: unknown, apiKey: string): unknown {
  if (typeof value === "string") return redact(value, apiKey);
  if (Array.isArray(value)) return value.map((item) => redactBody(item, apiKey));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [redact(key, apiKey), redactBody(child, apiKey)]),
  );
}

/** A copy of response headers with the key redacted from every value. */
export const redactHeaders = (headers: Headers, apiKey: string): Headers =>
  new Headers([...headers].map(([name, value]): [string, string] => [name, redact(value, apiKey)]));
