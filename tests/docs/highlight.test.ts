/**
 * The guides' code blocks (docs-src/highlight.ts): a language the guides name is coloured by Prism,
 * the block and its code both carrying `language-<grammar>` under the grammar's own name (`sh` is
 * bash); a language it does not know, or none, is the code escaped and no class at all.
 */
import { describe, expect, it } from "vitest";
import { highlightedCode } from "../../docs-src/highlight.ts";
import { escapeHtml } from "../../docs-src/html-text.ts";

describe("highlightedCode", () => {
  it("names the grammar on the block and its code, and wraps Prism's tokens", () => {
    const html = highlightedCode('echo "hi"', "sh");
    expect(html.startsWith('<pre class="language-bash"><code class="language-bash">')).toBe(true);
    expect(html.endsWith("</code></pre>\n")).toBe(true);
    expect(html).toContain('<span class="token string">"hi"</span>');
  });

  it("leaves a language it does not know, or none, as escaped text with no class", () => {
    expect(highlightedCode("a < b && c", "elixir")).toBe("<pre><code>a &lt; b &amp;&amp; c</code></pre>\n");
    expect(highlightedCode("<x>", undefined)).toBe("<pre><code>&lt;x&gt;</code></pre>\n");
  });
});

describe("escapeHtml", () => {
  it("escapes each character that ends text or a quoted attribute, the ampersand first", () => {
    expect(escapeHtml(`a & <b> "c" 'd'`)).toBe("a &amp; &lt;b&gt; &quot;c&quot; 'd'");
    expect(escapeHtml("&lt;")).toBe("&amp;lt;");
  });
});
