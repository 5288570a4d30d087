/**
 * A GitHub-flavoured Markdown table; cells are Markdown on one line, each `|` escaped. A pipe the
 * text already escapes (`\|`: an odd run of backslashes before it) is left as it is; after an even
 * run (`\\|`: an escaped backslash, then a pipe) one more backslash escapes the pipe, which a table
 * would otherwise take for the end of the cell.
 */
export function markdownTable(header: string[], rows: string[][]): string {
  const cell = (text: string): string =>
    text
      .replace(/\s*\n\s*/g, " ")
      .replace(/(\\*)\|/g, (pipe, backslashes: string) => (backslashes.length % 2 === 0 ? `${backslashes}\\|` : pipe))
      .trim();
  const line = (cells: string[]): string => `| ${cells.map(cell).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The first paragraph of a Markdown description, on one line. */
export function firstParagraph(text: string | undefined): string {
  return (
    (text ?? "")
      .trim()
      .split(/\n\s*\n/)[0]
      ?.replace(/\s*\n\s*/g, " ")
      .trim() ?? ""
  );
}

export function jsonBlock(value: unknown): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}
