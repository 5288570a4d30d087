/** docs/rules.md lists every rule with its words and its checks, or why it has none, and is as the generator makes it. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECKS } from "../../conformance/checks/index.ts";
import { ruleCoverage } from "../../conformance/rules.ts";
import { builtCatalogue, rulesPage } from "../../generators/rules-page.ts";
import { readCatalogue } from "../../spec/catalogue.ts";
import { readCatalogueSource } from "../../spec/catalogue-source.ts";
import { model } from "../support/description.ts";

/** The catalogue with its pointers as this build holds them (a slug map renames the create routes). */
const catalogue = builtCatalogue(readCatalogueSource(), model);
const page = readFileSync(new URL("../../docs/rules.md", import.meta.url), "utf8");

describe("docs/rules.md", () => {
  it("is what npm run generate writes, as is the JSON copy of the catalogue the tools read", () => {
    expect(page === rulesPage(catalogue), "docs/rules.md is stale: run npm run generate").toBe(true);
    expect(readCatalogue(), "generated/rules.json is stale: run npm run generate").toEqual(catalogue);
  });

  it("has an entry per rule with the specification's words", () => {
    expect(
      catalogue.rules
        .filter((rule) => !page.includes(`### \`${rule.id}\`\n\n> ${rule.words}\n`))
        .map((rule) => rule.id),
    ).toEqual([]);
  });

  it("gives the counts a run's reports give of the rules no run can check", () => {
    const coverage = ruleCoverage([], CHECKS, catalogue);
    expect(coverage.uncheckedBy["not-observable"]).toBe(coverage.notObservable);
    expect(coverage.uncheckedBy["no-check"]).toBe(coverage.noCheck);
    expect(page).toContain(
      `The conformance suite's checks name ${coverage.total - coverage.notObservable - coverage.noCheck} of them. Of the other ${coverage.notObservable + coverage.noCheck}, ${coverage.notObservable} are not observable`,
    );
    expect(page).toContain(`and ${coverage.noCheck} are observable without a check.`);
    expect(coverage.noCheck).toBeGreaterThan(0);
  });

  it("names a rule's checks, and where none, the reason", () => {
    expect(page).toContain(
      "### `states.failed`\n\n> failed | yes | No charge\n\n- **checked by:** `billing: a failed job is charged nothing`; `lifecycle: no return from a terminal state, terminal state stable{example}`",
    );
    expect(page).toContain(
      "### `versioning.version-string`\n\n> The interface version string is `2026-06-20`.\n\n- **unchecked** (not observable): no response carries the interface version (none is shown)",
    );
  });

  it("names the create routes as a build with a slug map holds them, and nothing else", () => {
    const source = {
      ...catalogue,
      rules: [
        {
          id: "x.one",
          section: "S",
          words: "w",
          openapi: [
            "/paths/~1v1~1images~1i-a/post/x-pricing",
            "/paths/~1v1~1images~1i-a",
            "/paths/~1v1~1images~1i-ab/post",
            "/paths/~1v1~1images~1{id}/get",
          ],
        },
      ],
    };
    const routes = [{ label: "I-A", path: "/v1/images/imagegen-4-ultra" }] as unknown as typeof model.createRoutes;
    expect(builtCatalogue(source, { createRoutes: routes }).rules[0]?.openapi).toEqual([
      "/paths/~1v1~1images~1imagegen-4-ultra/post/x-pricing",
      "/paths/~1v1~1images~1imagegen-4-ultra",
      "/paths/~1v1~1images~1i-ab/post",
      "/paths/~1v1~1images~1{id}/get",
    ]);
  });
});

describe("the rules page of a catalogue", () => {
  const rule = { id: "x.one", section: "S", words: "w", openapi: ["/paths/~1v1~1credits/get"] };
  const pageOf = (rules: object[], informative: object[] = []): string =>
    rulesPage({ rules, informative } as unknown as Parameters<typeof rulesPage>[0]);

  it("keeps each code span whole: a backtick in a name becomes a quote", () => {
    expect(pageOf([{ ...rule, unchecked: "u", declare: "a `b` c" }])).toContain("the declaration would need `a 'b' c`");
  });

  it("keeps a table row whole: a pipe in an informative sentence is escaped", () => {
    expect(pageOf([], [{ section: "S", words: "a | b", reason: "r" }])).toContain("| S | a \\| b | r |");
  });

  it("refuses a rule that no check names without its reason, or one that names no place in the description without why", () => {
    expect(() => pageOf([rule])).toThrow("spec/rules.yaml: rule x.one is named by no check and gives no unchecked");
    expect(() => pageOf([{ id: "x.two", section: "S", words: "w", unchecked: "u" }])).toThrow(
      "spec/rules.yaml: rule x.two names no place in the description and gives no openapi-none",
    );
  });

  it("counts the rules no check names, those no client can observe and those no check reads", () => {
    const hidden = { ...rule, id: "x.hidden", unchecked: "u", observable: false };
    const open = { ...rule, id: "x.open", unchecked: "u" };
    expect(pageOf([hidden])).toContain(
      "name 0 of them. Of the other 1, 1 is not observable (no client holding the declared keys can see it, in an answer or in a result file an answer links to) and 0 are observable without a check.",
    );
    expect(pageOf([hidden, open, { ...open, id: "x.more" }])).toContain(
      "name 0 of them. Of the other 3, 1 is not observable (no client holding the declared keys can see it, in an answer or in a result file an answer links to) and 2 are observable without a check.",
    );
  });

  it("lists a rule no check names as observable and not checked yet, unless the catalogue says no request can observe it", () => {
    const listed = pageOf([
      { ...rule, id: "x.hidden", unchecked: "u", observable: false },
      { ...rule, id: "x.open", unchecked: "v" },
    ]);
    expect(listed).toContain("### `x.hidden`\n\n> w\n\n- **unchecked** (not observable): u\n");
    expect(listed).toContain("### `x.open`\n\n> w\n\n- **unchecked** (observable without a check): v\n");
  });

  it("escapes a route's ~ and / in a JSON pointer", () => {
    const source = { rules: [{ ...rule, openapi: ["/paths/~1v1~1a~0b~1i-a/post"] }], informative: [] };
    const routes = [{ label: "I-A", path: "/v1/a~b/real-slug" }] as unknown as typeof model.createRoutes;
    expect(builtCatalogue(source, { createRoutes: routes }).rules[0]?.openapi).toEqual([
      "/paths/~1v1~1a~0b~1real-slug/post",
    ]);
  });
});
