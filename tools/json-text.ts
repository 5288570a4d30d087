/**
 * JSON input files (the sandbox config, the conformance declaration, the acknowledgements file)
 * parsed with errors that name the file, line and column, as editors link them. Node's own message
 * gives a character offset at best ("at position 86") and often none.
 */

export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly why: string,
  ) {
    super(`${file}:${line}:${column}: not valid JSON: ${why}`);
  }
}

/** Deeper nesting is refused rather than scanned (the scanner recurses). */
const MAX_DEPTH = 1000;

/** Where and why strict JSON stops being valid: a small scanner, run only after JSON.parse failed. */
function firstError(text: string): { at: number; why: string } {
  let i = 0;
  const fail = (why?: string): never => {
    throw {
      at: i,
      why: why ?? (i >= text.length ? "unexpected end of file" : `unexpected ${JSON.stringify(text[i])}`),
    };
  };
  const space = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    for (const char of word) if (text[i++] !== char) i--, fail();
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const char = text[i]!;
      if (char === '"') return void i++;
      if (char < " ") fail("control character in a string (escape it)");
      if (char === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail("bad \\u escape");
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "")) fail("bad escape");
      }
      i++;
    }
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail();
    i += match![0].length;
  };
  let depth = 0;
  /** The members of an object or array from its opening character to `close`, each read by `member`. */
  const members = (close: "}" | "]", member: () => void): void => {
    if (++depth > MAX_DEPTH) fail(`nested more than ${MAX_DEPTH} deep`);
    i++;
    space();
    if (text[i] === close) return void (i++, depth--);
    for (;;) {
      space();
      if (text[i] === close) fail("trailing comma");
      member();
      space();
      if (text[i] === ",") i++;
      else if (text[i] === close) return void (i++, depth--);
      else fail(`expected "," or "${close}"`);
    }
  };
  const property = (): void => {
    if (text[i] !== '"')
      fail(`expected a "quoted" key, got ${i >= text.length ? "the end of file" : JSON.stringify(text[i])}`);
    string();
    space();
    if (text[i] !== ":") fail(`expected ":" after a key`);
    i++;
    value();
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === "{") return members("}", property);
    if (char === "[") return members("]", value);
    if (char === '"') return string();
    if (char === "t") return literal("true");
    if (char === "f") return literal("false");
    if (char === "n") return literal("null");
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return number();
    fail();
  };
  try {
    value();
    space();
    if (i < text.length) fail("unexpected text after the JSON value");
  } catch (error) {
    if (typeof error === "object" && error !== null && "at" in error) return error as { at: number; why: string };
    throw error;
  }
  return { at: text.length, why: "not valid JSON" };
}

/** Parses `text` of `file`; a syntax error is a JsonSyntaxError `file:line:column: not valid JSON: why`. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { at, why } = firstError(text);
    const before = text.slice(0, at).split("\n");
    throw new JsonSyntaxError(file, before.length, before.at(-1)!.length + 1, why);
  }
}
