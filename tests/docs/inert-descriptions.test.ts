/**
 * Description text is made inert before the reference page shows it (docs-src/inert-descriptions.ts):
 * the HTML Redoc's sanitizer keeps (`<style>`, `<form>`, `<input>`, `style` attributes, ...) is
 * shown as text, a few bare formatting tags stay, code and Markdown stay as written; and the
 * reference's copies of a description with such HTML (the page's, openapi.json, reference.md) carry
 * none of it as HTML.
 */
import { describe, expect, it } from "vitest";
import { inertMarkdown, makeDescriptionsInert } from "../../docs-src/inert-descriptions.ts";
import { loadBundle, operations } from "../../model/document.ts";
import { referenceCopies } from "../../docs-src/reference-copy.ts";
import { referenceMarkdown } from "../../docs-src/reference-markdown.ts";

const ACTIVE = [
  "<style>body { display: none }</style>",
  '<form action="https://evil.example/"><input name="key" placeholder="Your API key"><button>Go</button></form>',
  '<div style="position: fixed; inset: 0; background: white">covered</div>',
  '<iframe src="https://evil.example/"></iframe>',
  '<a href="https://evil.example/" target="_top">click</a>',
  "<!-- a comment that hides -->",
];

/** An HTML element (not text) of the named kinds in rendered-to-be Markdown: what Redoc would keep. */
const rawTags = (text: string): string[] =>
  [...text.matchAll(/<\/?(style|form|input|button|div|iframe|a)\b[^>]*>|<!--/gi)].map((match) => match[0]);

describe("inertMarkdown", () => {
  it("shows every active or layout-breaking tag as text, inline and as a block", () => {
    for (const html of ACTIVE) {
      for (const markdown of [`Before ${html} after.`, `Intro.\n\n${html}\n\nOutro.`, `- item ${html}\n- other`]) {
        const inert = inertMarkdown(markdown);
        expect(rawTags(inert), markdown).toEqual([]);
        expect(inert, markdown).toContain("&lt;");
      }
    }
  });

  it("keeps bare formatting tags, code spans, code blocks, links and autolinks as written", () => {
    const kept = [
      "Line<br>break, <b>bold</b>, <code>x</code>",
      "Use `<style>` as text, or `a < b`.",
      "```html\n<form><input></form>\n```",
      "    <script>indented code</script>",
      "[docs](https://example.com/docs) and <https://example.com/auto>",
      "| a | b |\n|---|---|\n| `<x>` | <sub>2</sub> |",
    ];
    for (const markdown of kept) expect(inertMarkdown(markdown), markdown).toBe(markdown);
  });

  it("does not keep a formatting tag that carries an attribute", () => {
    expect(inertMarkdown('<p style="position:fixed">x</p>')).toBe("&lt;p style=&quot;position:fixed&quot;&gt;x</p>");
    expect(inertMarkdown('<b onclick="x()">b</b>')).not.toMatch(/<b /);
  });

  it("shows raw HTML inside table cells and list items as text", () => {
    expect(inertMarkdown("| a | b |\n|---|---|\n| <form>x</form> | `<form>` |")).toBe(
      "| a | b |\n|---|---|\n| &lt;form&gt;x&lt;/form&gt; | `<form>` |",
    );
    expect(inertMarkdown("- one <style>s</style>\n- `<style>`")).toBe(
      "- one &lt;style&gt;s&lt;/style&gt;\n- `<style>`",
    );
  });

  it("finds raw HTML after a code block holding the same text, and leaves the code block as written", () => {
    const markdown = "```\n<style>x</style>\n```\n\n<style>x</style>\n";
    expect(inertMarkdown(markdown)).toBe("```\n<style>x</style>\n```\n\n&lt;style&gt;x&lt;/style&gt;\n");
  });

  it("finds raw HTML after code holding the same text", () => {
    const markdown = "Write `<style>` in code, then <style>body{}</style> for real.";
    expect(inertMarkdown(markdown)).toBe("Write `<style>` in code, then &lt;style&gt;body{}&lt;/style&gt; for real.");
  });

  it("finds an HTML block of several lines, and leaves the code after it as written", () => {
    expect(inertMarkdown("<div>\n<form action=x>\n</div>\n\nUse `<input>` here.")).toBe(
      "&lt;div&gt;\n&lt;form action=x&gt;\n&lt;/div&gt;\n\nUse `<input>` here.",
    );
  });

  it("shows every tag as text, code included, where the lexer rewrote the HTML (inside a quote)", () => {
    expect(inertMarkdown("> <div>\n> <form>\n\nUse `<input>` here.")).toBe(
      "> &lt;div&gt;\n> &lt;form&gt;\n\nUse `&lt;input&gt;` here.",
    );
  });
});

describe("makeDescriptionsInert", () => {
  it("treats every description of the document, and leaves examples, defaults and enums as data", () => {
    const doc = {
      info: { description: "<style>x</style>" },
      tags: [{ name: "T", description: "<form></form>" }],
      paths: {
        "/p": {
          post: {
            description: "<input>",
            parameters: [{ name: "q", description: "<button>b</button>", example: "<keep>" }],
            responses: { "200": { description: "<div style='x'>d</div>" } },
            requestBody: {
              content: {
                "application/json": {
                  examples: { value: { description: "<style>e</style>", value: { description: "<keep>" } } },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          S: {
            description: "<iframe>",
            default: "<keep>",
            enum: ["<keep>"],
            examples: ["<keep>", { description: "<keep>" }],
            "x-note": null,
            properties: { value: { description: "<form>" }, description: { type: "string", description: "<input>" } },
          },
        },
      },
    };
    makeDescriptionsInert(doc);
    const text = JSON.stringify(doc);
    expect(rawTags(text)).toEqual([]);
    expect(text.match(/<keep>/g)).toHaveLength(6);
  });
});

const PLANTED = "<style>body { display: none }</style> <form><input name=key></form>";

function hostileCopy(): ReturnType<typeof loadBundle> {
  const doc = loadBundle();
  const first = operations(doc)[0]!.operation;
  first.description = `${first.description ?? ""}\n\n${PLANTED}\n`;
  doc.info.description = `${String(doc.info.description ?? "")}\n\n${PLANTED}\n`;
  return doc;
}

describe("the reference's copies of a description with active HTML", () => {
  it("carry none of it as HTML, on the page, in openapi.json or in reference.md, and show it as text", () => {
    const { whole, page } = referenceCopies(hostileCopy(), []);
    for (const [what, text] of Object.entries({
      page: JSON.stringify(page),
      "openapi.json": JSON.stringify(whole),
      "reference.md": referenceMarkdown(whole),
    })) {
      expect(/<style|<form|<input/.test(text), `${what} holds the planted HTML as HTML`).toBe(false);
      expect(text.includes("&lt;style&gt;body { display: none }&lt;/style&gt;"), `${what} shows it as text`).toBe(true);
    }
  });
});
