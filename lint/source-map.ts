import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import type { SlugMap } from "../model/slug-map.ts";
import type { JsonPath } from "./finding.ts";
import { pointerPath } from "./refs.ts";

/** A place in a file, lines and columns counted from 1. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

interface Parsed {
  root: Node | null;
  lines: LineCounter;
}

/** Where a walk stands: a node of a file, and the node to report for it (a key rather than its value). */
interface Step {
  file: string;
  node: Node | null;
  mark: Node | null;
}

const REF = "$ref";

/**
 * Finds the file and line a JSON path of a description comes from. Starting at the root file, it
 * walks the path through maps and lists and, where the file has a `$ref` and the path goes on, into
 * the file the `$ref` names (`./paths/v1_images_i-a.yaml`, `../schemas/Job.yaml#/properties/id`).
 * Redocly's bundle names each component after its file, so `components/<kind>/<Name>` not written
 * in the root starts at `components/<kind>/<Name>.yaml` beside it. A path that does not lead to a
 * node of the files has no location (the caller falls back to the bundle's).
 */
export class SourceMap {
  private readonly parsed = new Map<string, Parsed>();
  private readonly placeholders: Map<string, string>;

  /** `slugMap` is the one the bundle applied: a bundle path with a real slug maps to the placeholder's file. */
  constructor(
    private readonly rootFile: string,
    slugMap: SlugMap = {},
  ) {
    this.placeholders = new Map(Object.entries(slugMap).map(([placeholder, real]) => [real, placeholder]));
  }

  locate(path: JsonPath): SourceLocation | undefined {
    const keys = path.map(String);
    if (keys[0] === "paths" && keys[1] !== undefined) keys[1] = this.unslug(keys[1]);
    const { from, consumed } = this.start(keys);
    const end = this.walk(from, keys.slice(consumed));
    const mark = end?.mark ?? end?.node;
    if (end === undefined || !mark?.range) return undefined;
    const { line, col } = this.file(end.file).lines.linePos(mark.range[0]);
    return { file: end.file, line, column: col };
  }

  /** The root file, or the file of a component the root does not hold itself. */
  private start(keys: string[]): { from: Step; consumed: number } {
    const root: Step = { file: this.rootFile, node: this.file(this.rootFile).root, mark: null };
    const [group, kind, name] = keys;
    if (
      group !== "components" ||
      // Stryker disable next-line ConditionalExpression: equivalent: without a kind there is no name either, and the next test returns the same
      kind === undefined ||
      name === undefined ||
      this.walk(root, [group, kind, name]) !== undefined
    )
      return { from: root, consumed: 0 };
    const file = join(dirname(this.rootFile), "components", kind, `${name}.yaml`);
    return existsSync(file)
      ? { from: { file, node: this.file(file).root, mark: null }, consumed: 3 }
      : { from: root, consumed: 0 };
  }

  private walk(from: Step, keys: string[]): Step | undefined {
    let current: Step | undefined = from;
    for (const key of keys) {
      const here: Step | undefined = current && this.through(current, key);
      current = here && this.child(here, key);
    }
    return current;
  }

  /** Follows the `$ref`s at a node to the node they name, unless the path goes into the `$ref` itself. */
  private through(step: Step, key: string): Step | undefined {
    let current = step;
    const visited = new Set<string>();
    while (key !== REF && isMap(current.node) && current.node.has(REF)) {
      const ref = current.node.get(REF);
      const [target = "", fragment = ""] = typeof ref === "string" ? ref.split("#") : [];
      const file = target === "" ? current.file : resolve(dirname(current.file), target);
      if (typeof ref !== "string" || visited.has(`${file}#${fragment}`) || !existsSync(file)) return undefined;
      visited.add(`${file}#${fragment}`);
      const landed = this.walk(
        { file, node: this.file(file).root, mark: null },
        fragment === "" ? [] : pointerPath(`#${fragment}`).map(String),
      );
      if (landed === undefined) return undefined;
      current = { ...landed, mark: step.mark };
    }
    return current;
  }

  private child({ file, node }: Step, key: string): Step | undefined {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
      return pair && { file, node: (pair.value as Node | null) ?? null, mark: pair.key as Node };
    }
    // Stryker disable next-line Regex: equivalent: a key with other characters than digits is NaN as a number, and a list has no item NaN
    if (isSeq(node) && /^\d+$/.test(key)) {
      const item = node.items[Number(key)] as Node | undefined;
      return item && { file, node: item, mark: item };
    }
    return undefined;
  }

  private file(file: string): Parsed {
    let parsed = this.parsed.get(file);
    // Stryker disable next-line ConditionalExpression: equivalent: parsing again gives the same result; the cache only saves the time
    if (parsed === undefined) {
      const lines = new LineCounter();
      parsed = {
        root: parseDocument(readFileSync(file, "utf8"), { lineCounter: lines }).contents as Node | null,
        lines,
      };
      this.parsed.set(file, parsed);
    }
    return parsed;
  }

  /** `/v1/images/<real slug>` as the description writes it, `/v1/images/<placeholder>`. */
  private unslug(path: string): string {
    const segments = path.split("/");
    const placeholder = this.placeholders.get(segments[segments.length - 1]!);
    if (placeholder !== undefined) segments[segments.length - 1] = placeholder;
    return segments.join("/");
  }
}
