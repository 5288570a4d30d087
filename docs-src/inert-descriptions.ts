/**
 * Description text made inert before it reaches the reference page. Redoc renders a description's
 * Markdown with its raw HTML and cleans it with DOMPurify's defaults, which keep `<style>`,
 * `<form>`, `<input>`, `<button>` and `style` attributes: a description could restyle the whole
 * page, lay a form over it asking for a key, or hide the operations. So, as the guides do, raw HTML
 * is shown as text: every tag of the Markdown's raw HTML becomes text, except a few bare formatting
 * tags with no attribute (`<b>`, `<br>`, `<code>`, table cells, ...). Code spans and code blocks are
 * left as written (their `<` is already text), and so is everything else of the Markdown.
 */
import { Lexer, type Token, type Tokens } from "marked";
import { escapeHtml } from "./html-text.ts";

/** Formatting tags kept as HTML: no attribute, nothing active, nothing that can cover the page. */
const INERT_TAG =
  /^<\/?(?:b|strong|i|em|u|s|code|kbd|samp|var|sub|sup|small|mark|br|hr|p|ul|ol|li|dl|dt|dd|blockquote|pre|table|thead|tbody|tfoot|tr|th|td|caption)\s*\/?>$/i;

/** A tag, comment or declaration as it starts in raw HTML, up to its `>` (or the text's end). */
const ANY_TAG = /<[^>]*>?/g;

/** Raw HTML with each tag but the inert ones shown as text. */
export function inertHtml(raw: string): string {
  return raw.replace(ANY_TAG, (tag) => (INERT_TAG.test(tag) ? tag : escapeHtml(tag)));
}

/** The leaves that matter, in the order they stand in the text: raw HTML, and code whose `<` is text. */
function leaves(tokens: readonly Token[], found: Token[] = []): Token[] {
  for (const token of tokens) {
    if (token.type === "html" || token.type === "code" || token.type === "codespan") {
      found.push(token);
      continue;
    }
    if (token.type === "table") {
      const table = token as Tokens.Table;
      for (const cell of [...table.header, ...table.rows.flat()]) leaves(cell.tokens, found);
      continue;
    }
    if (token.type === "list") {
      for (const item of (token as Tokens.List).items) leaves(item.tokens, found);
      continue;
    }
    if ("tokens" in token && Array.isArray(token.tokens)) leaves(token.tokens, found);
  }
  return found;
}

/**
 * A description's Markdown with its raw HTML made inert. Each raw-HTML token is found where it
 * stands, after the code before it; if one cannot be found as written (Markdown nested in a way the
 * lexer rewrote), every tag of the text is shown as text instead, code included: safe before pretty.
 */
export function inertMarkdown(markdown: string): string {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: a text without "<" has no raw HTML, and the walk below returns it as it is
  if (!markdown.includes("<")) return markdown;
  const parts: string[] = [];
  let at = 0;
  for (const token of leaves(new Lexer({ gfm: true }).lex(markdown))) {
    const raw = token.type === "html" ? token.raw.replace(/\n+$/, "") : token.raw.trim();
    const start = markdown.indexOf(raw, at);
    if (start < 0) return inertHtml(markdown);
    parts.push(markdown.slice(at, start), token.type === "html" ? inertHtml(raw) : raw);
    at = start + raw.length;
  }
  parts.push(markdown.slice(at));
  return parts.join("");
}

/** Keywords whose values are data (examples, defaults, enums), never Markdown, in an OpenAPI document. */
const DATA_KEYS = new Set(["value", "example", "default", "enum", "const", "x-codeSamples"]);

/** Keywords whose values map names to objects: there, a key is a name (a property called `value`), not a keyword. */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "parameters",
  "responses",
  "examples",
  "requestBodies",
  "headers",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "paths",
  "webhooks",
  "content",
  "encoding",
  "variables",
]);

/**
 * Every Markdown description of an OpenAPI document (info, tags, operations, parameters, answers,
 * schemas, examples, servers, ...) made inert, in place; the data (examples, defaults, enums) left
 * as it is.
 */
// Stryker disable next-line BooleanLiteral: equivalent: `named` matters only with a key, and the first call has none
export function makeDescriptionsInert(node: unknown, key?: string, named = false): void {
  if (key !== undefined && !named && DATA_KEYS.has(key)) return;
  if (Array.isArray(node)) {
    // A schema's `examples` is a list of values: data.
    if (key === "examples" && !named) return;
    for (const item of node) makeDescriptionsInert(item);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const object = node as Record<string, unknown>;
  const namesHere = key !== undefined && !named && NAME_MAPS.has(key);
  for (const [name, value] of Object.entries(object)) {
    if (name === "description" && typeof value === "string" && !namesHere) object[name] = inertMarkdown(value);
    else makeDescriptionsInert(value, name, namesHere);
  }
}
