/** Sends the suite's requests and keeps each exchange, so any failure can be replayed with curl. */
export interface RequestSpec {
  method: string;
  /** Path and query, e.g. `/v1/images/i-a`. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Exchange {
  request: RequestSpec;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** Prism proxy violations (`sl-violations`) when the request went through the validation proxy. */
  violations: ProxyViolation[];
}

export interface ProxyViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface Transport {
  /** The base URL requests are sent to (the Prism proxy when one runs). */
  sendUrl: string;
  /** The target's own base URL, used in the curl commands. */
  targetUrl: string;
  /** The API key; curl commands print `$CONFORMANCE_API_KEY` instead of it. */
  apiKey: string;
}

export function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}

export async function send(transport: Transport, request: RequestSpec): Promise<Exchange> {
  const headers = { ...request.headers };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(transport.sendUrl + request.path, {
    method: request.method.toUpperCase(),
    headers,
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
  });
  const text = await response.text();
  return {
    request,
    status: response.status,
    headers: response.headers,
    text,
    json: parseJson(text),
    violations: parseViolations(response.headers.get("sl-violations")),
  };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseViolations(header: string | null): ProxyViolation[] {
  if (!header) return [];
  const parsed = parseJson(header);
  if (Array.isArray(parsed)) return parsed as ProxyViolation[];
  // Prism truncates a long list ("Too many violations! ..."): keep it as one violation.
  return [{ location: ["response"], severity: "Error", code: "truncated", message: header }];
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command reproducing `request` against the target; the API key is left as a variable. */
export function curl(transport: Transport, request: RequestSpec): string {
  const parts = ["curl -sS -i", "-X", request.method.toUpperCase(), shellQuote(transport.targetUrl + request.path)];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = transport.apiKey ? value.split(transport.apiKey).join("$CONFORMANCE_API_KEY") : value;
    // Double quotes so the shell expands $CONFORMANCE_API_KEY; the header text itself is plain.
    parts.push("-H", shown.includes("$CONFORMANCE_API_KEY") ? `"${name}: ${shown}"` : shellQuote(`${name}: ${shown}`));
  }
  if (request.body !== undefined) {
    parts.push("-H", shellQuote("content-type: application/json"), "--data-raw", shellQuote(JSON.stringify(request.body)));
  }
  return parts.join(" ");
}
