/** The curl code sample of an operation, from its example request. */
import { examplePath, type RequestExample } from "./request-example.ts";

/** Quotes text for a POSIX shell inside single quotes. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlSample(request: RequestExample): string {
  const method = request.method.toUpperCase();
  const lines = [
    `curl${method === "GET" ? "" : ` -X ${method}`} "$BASE_URL${examplePath(request)}"`,
    `-H "Authorization: Bearer $API_KEY"`,
  ];
  if (request.body !== undefined) {
    lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(request.body, null, 2))}`);
  }
  return lines.join(" \\\n  ");
}
