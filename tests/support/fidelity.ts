import { expect, it } from "vitest";
import { bodyErrors } from "./description.ts";

/**
 * Table-driven fidelity checks read off the seed: each good body must validate, and each bad body
 * (one rule broken) must be rejected with an error that mentions `expectKeyword`.
 */
export interface BadBody {
  rule: string;
  body: Record<string, unknown>;
  /** The Ajv keyword expected among the errors, e.g. "enum", "maximum", "required", "not". */
  keyword: string;
}

export function accepts(path: string, cases: Record<string, Record<string, unknown>>): void {
  for (const [name, body] of Object.entries(cases)) {
    it(`accepts ${name}`, () => {
      expect(bodyErrors(path, body)).toBe("");
    });
  }
}

export function rejects(path: string, cases: BadBody[]): void {
  for (const { rule, body, keyword } of cases) {
    it(`rejects: ${rule}`, () => {
      const errors = bodyErrors(path, body);
      expect(errors, `body ${JSON.stringify(body)} should break "${rule}"`).not.toBe("");
      expect(errors).toContain(`[${keyword}]`);
    });
  }
}
