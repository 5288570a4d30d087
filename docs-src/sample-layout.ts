/**
 * How the generated code samples lay out a call so that its lines fit the reference's code panel:
 * on one line when it fits; else with its last argument opening on the call's line when only that
 * one spans lines (a body); else one argument a line, as Prettier and Black do.
 */

/** The longest line the samples are laid out for: the reference's code panel at 1280 px shows it whole. */
export const SAMPLE_COLUMNS = 64;

export interface CallStyle {
  /** The indent of an argument on its own line. */
  readonly indent: string;
  /** What ends the statement (`;` in TypeScript and JavaScript, nothing in Python). */
  readonly end: string;
}

export const JS_CALL: CallStyle = { indent: "  ", end: ";" };
export const PYTHON_CALL: CallStyle = { indent: "    ", end: "" };

export function callOf(head: string, args: readonly string[], { indent, end }: CallStyle): string {
  const together = `${head}(${args.join(", ")})${end}`;
  const firstLine = together.split("\n")[0]!;
  const multiLine = args.filter((arg) => arg.includes("\n"));
  if (
    firstLine.length <= SAMPLE_COLUMNS &&
    (multiLine.length === 0 || (multiLine.length === 1 && multiLine[0] === args.at(-1)))
  )
    return together;
  return `${head}(\n${args.map((arg) => `${indent}${arg.replace(/\n/g, `\n${indent}`)},`).join("\n")}\n)${end}`;
}
