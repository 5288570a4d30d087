/**
 * Code highlighting at build time with Prism (prismjs, the highlighter Redoc bundles for its own
 * samples), so the guides' code blocks are coloured with no script and nothing loaded. Prism escapes
 * the code it wraps in its token spans; a language it does not know is escaped as plain text.
 */
import Prism from "prismjs";
import "prismjs/components/prism-bash.js";
import "prismjs/components/prism-json.js";
import "prismjs/components/prism-typescript.js";
import "prismjs/components/prism-yaml.js";
import { escapeHtml } from "./html-text.ts";

/** A fence's language as the guides write it -> Prism's grammar name. */
const GRAMMARS: Record<string, string> = {
  sh: "bash",
  bash: "bash",
  shell: "bash",
  json: "json",
  ts: "typescript",
  typescript: "typescript",
  yaml: "yaml",
  yml: "yaml",
};

export function highlightedCode(code: string, language: string | undefined): string {
  const name = GRAMMARS[language ?? ""];
  const grammar = name ? Prism.languages[name] : undefined;
  const inner = grammar && name ? Prism.highlight(code, grammar, name) : escapeHtml(code);
  const className = name ? ` class="language-${name}"` : "";
  return `<pre${className}><code${className}>${inner}</code></pre>\n`;
}
