/** Removes the API key from text, parsed bodies and headers before they reach an error. */

const REDACTED = "[redacted]";

/** Replaces every occurrence of the key, in case a fetch implementation or the service echoes it. */
export function redact(text: string, apiKey: string): string {
  return apiKey ? text.split(apiKey).join(REDACTED) : text;
}

/** A copy of a parsed JSON body with the key redacted from every string in it. */
export function redactBody(value: unknown, apiKey: string): unknown {
  if (typeof value === "string") return redact(value, apiKey);
  if (Array.isArray(value)) return value.map((item) => redactBody(item, apiKey));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [redact(key, apiKey), redactBody(child, apiKey)]));
}

/** A copy of response headers with the key redacted from every value. */
export function redactHeaders(headers: Headers, apiKey: string): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => copy.append(name, redact(value, apiKey)));
  return copy;
}
