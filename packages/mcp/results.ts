/**
 * Tool results as an agent reads them: a sentence, the facts as structured content, and a job's
 * results as resource links to their URLs. Media is never inlined: only http(s) URLs are linked,
 * and any other value in a result field (a data URI) is left out with a note.
 */
import type { CallToolResult, ResourceLink } from "@modelcontextprotocol/sdk/types.js";
import { redactBody } from "../../runtime/client/redact.ts";

/** A successful result: `text` for the model, `facts` as structured content. */
export function toolResult(
  text: string,
  facts: Record<string, unknown> = {},
  links: ResourceLink[] = [],
): CallToolResult {
  return { content: [{ type: "text", text }, ...links], structuredContent: facts };
}

/** An error an agent can act on: a tool result with isError, not a protocol error, so the model sees it. */
export function toolError(text: string, facts: Record<string, unknown> = {}): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: { error: text, ...facts }, isError: true };
}

/** Every http(s) URL in a poll response, with the field it came from (`images[0].url`), and how many other media values were left out. */
export function resultUrls(job: unknown): { urls: Array<{ field: string; url: string }>; inlineLeftOut: number } {
  const urls: Array<{ field: string; url: string }> = [];
  let inlineLeftOut = 0;
  const visit = (value: unknown, field: string): void => {
    if (typeof value === "string") {
      if (/^https?:\/\//i.test(value)) urls.push({ field, url: value });
      else if (/^data:/i.test(value)) inlineLeftOut += 1;
      return;
    }
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, `${field}[${index}]`);
    } else if (typeof value === "object" && value !== null)
      for (const [key, child] of Object.entries(value)) visit(child, field ? `${field}.${key}` : key);
  };
  visit(job, "");
  return { urls, inlineLeftOut };
}

/** Resource links to a job's result URLs, named by the field that holds each. */
export function resultLinks(jobId: string, urls: ReadonlyArray<{ field: string; url: string }>): ResourceLink[] {
  return urls.map(({ field, url }) => ({ type: "resource_link", uri: url, name: `${jobId} ${field}` }));
}

/** A copy of anything sent to the client with the API key taken out of every string. */
export const withoutKey = <T>(value: T, apiKey: string): T => redactBody(value, apiKey) as T;
