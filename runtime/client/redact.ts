/** Removes the API key from text, parsed bodies and headers before they reach an error. */

/** Replaces every occurrence of the key (never empty: the options require one), in case a fetch implementation or the service echoes it. */
export const redact = (text: string, apiKey: string): string => text.split(apiKey).join("[redacted]");

/** A copy of a parsed JSON body with the key redacted from every string in it. */
export function redactBody(value: unknown, apiKey: string): unknown {
  if (typeof value === "string") return redact(value, apiKey);
  if (Array.isArray(value)) return value.map((item) => redactBody(item, apiKey));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [redact(key, apiKey), redactBody(child, apiKey)]));
}

/** A copy of response headers with the key redacted from every value. */
export const redactHeaders = (headers: Headers, apiKey: string): Headers => new Headers([...headers].map(([name, value]): [string, string] => [name, redact(value, apiKey)]));
