/**
 * The Markdown tables the guides and the reference's copy are built with (docs-src/markdown-table.ts),
 * rendered as the site renders them (docs-src/markdown-page.ts, GitHub-flavoured Markdown): a cell
 * holds text from the description, which may carry `|`, escaped pipes, backslashes and line breaks,
 * and each row must keep its columns whatever a cell holds. A cell shows what its Markdown shows
 * outside a table (GFM, tables: a pipe inside a cell is escaped as `\|`), on one line.
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../docs-src/markdown-page.ts";
import { firstParagraph, markdownTable } from "../../docs-src/markdown-table.ts";

const render = (markdown: string): string => renderMarkdown(`# T\n\n${markdown}\n`, "docs/guides/overview.md").html;

/** The cells of each row of the first rendered table, header first, as HTML. */
function renderedCells(markdown: string): string[][] {
  const table = /<table>([\s\S]*?)<\/table>/.exec(render(markdown))?.[1] ?? "";
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? "").matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => (cell[1] ?? "").trim()),
  );
}

/** What `text` renders to as a paragraph of its own, on one line: what its cell must show. */
const asParagraph = (text: string): string =>
  (/<p>([\s\S]*?)<\/p>/.exec(render(text))?.[1] ?? "").replace(/\s*\n\s*/g, " ").trim();

/** Cell texts a description may hold that a table could take apart. */
const HOSTILE_CELLS = [
  "a | b",
  "a|b|c",
  "|leading and trailing|",
  "an escaped pipe \\| stays one pipe",
  "an escaped backslash then a pipe \\\\| b",
  "three backslashes \\\\\\| then a pipe",
  "`code | with a pipe`",
  "first line\nsecond line | after a pipe",
  "a line ending in a pipe |\nnext",
  "ends with a backslash \\",
  "**bold | text**",
];

describe("a Markdown table of description text", () => {
  it("keeps every row at the header's column count, whatever pipes, backslashes and line breaks its cells hold", () => {
    for (const text of HOSTILE_CELLS) {
      const markdown = markdownTable(["Name", "Meaning", "Note"], [["`x`", text, "last"]]);
      // One line per row: the header, the delimiter row and the one body row.
      expect(markdown.split("\n"), text).toHaveLength(3);
      const cells = renderedCells(markdown);
      expect(
        cells.map((row) => row.length),
        text,
      ).toEqual([3, 3]);
      // A row split in two still renders the header's count of cells (the renderer drops the extra
      // ones), so the cells either side show whether the row kept its columns.
      expect(cells[1]?.[0], text).toBe("<code>x</code>");
      expect(cells[1]?.[2], text).toBe("last");
    }
  });

  it("shows in a cell what the cell's Markdown shows outside a table, line breaks as spaces", () => {
    for (const text of HOSTILE_CELLS) {
      const cells = renderedCells(markdownTable(["Meaning"], [[text]]));
      expect(cells[1], text).toEqual([asParagraph(text)]);
    }
    // Spelled out for the plain cases: a pipe is a pipe, an escaped backslash a backslash.
    expect(renderedCells(markdownTable(["Meaning"], [["a | b"]]))[1]).toEqual(["a | b"]);
    expect(renderedCells(markdownTable(["Meaning"], [["a\\\\|b"]]))[1]).toEqual(["a\\|b"]);
    expect(renderedCells(markdownTable(["Meaning"], [["one\ntwo"]]))[1]).toEqual(["one two"]);
  });

  it("escapes the header's cells as the rows'", () => {
    const cells = renderedCells(markdownTable(["a | b", "c"], [["1", "2"]]));
    expect(cells).toEqual([
      ["a | b", "c"],
      ["1", "2"],
    ]);
  });
});

describe("a table's text", () => {
  it("writes each cell on one line, trimmed, between single spaces", () => {
    expect(markdownTable(["  A ", "B"], [["  one\n   two  ", ""]])).toBe("| A | B |\n| --- | --- |\n| one two |  |");
  });
});

describe("firstParagraph", () => {
  it("gives a description's first paragraph on one line, however its lines are broken", () => {
    expect(firstParagraph("\n  First line\n  goes on.  \n\nSecond paragraph.")).toBe("First line goes on.");
    expect(firstParagraph("One\n \t \nTwo")).toBe("One");
    expect(firstParagraph("A  \nB\n  C")).toBe("A B C");
    expect(firstParagraph("x\nyz\nw")).toBe("x yz w");
  });

  it("gives nothing for no description", () => {
    expect(firstParagraph(undefined)).toBe("");
    expect(firstParagraph("")).toBe("");
  });
});
