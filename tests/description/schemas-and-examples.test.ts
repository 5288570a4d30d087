import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import extensions from "../../model/extensions.schema.json" with { type: "json" };
import { deref, operations, type MediaType, type ResponseObject } from "../../model/document.ts";
import { describeErrors, EXTENSION_NAMES } from "../../model/schema-registry.ts";
import { doc, registry } from "../support/description.ts";

/** Every media type object of the document: request bodies and responses, with where it sits. */
function mediaTypes(): Array<{ where: string; media: MediaType }> {
  const found: Array<{ where: string; media: MediaType }> = [];
  for (const { path, method, operation } of operations(doc)) {
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
      found.push({ where: `${method.toUpperCase()} ${path} request ${type}`, media });
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [type, media] of Object.entries(deref<ResponseObject>(doc, response).content ?? {})) {
        found.push({ where: `${method.toUpperCase()} ${path} ${status} ${type}`, media });
      }
    }
  }
  return found;
}

/** Every `x-` key anywhere in the document, with its JSON path and value. */
function extensionUses(): Array<{ at: string; name: string; value: unknown }> {
  const uses: Array<{ at: string; name: string; value: unknown }> = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        walk(child, `${at}/${i}`);
      });
      return;
    }
    if (typeof node !== "object" || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      if (key.startsWith("x-")) uses.push({ at: `${at}/${key}`, name: key, value: child });
      walk(child, `${at}/${key.replace(/\//g, "~1")}`);
    }
  };
  walk(doc, "#");
  return uses;
}

describe("schemas", () => {
  it("every component schema compiles under JSON Schema 2020-12 in strict mode", () => {
    const names = Object.keys(doc.components.schemas ?? {});
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(() => registry.component(name), name).not.toThrow();
  });

  it("every request and response schema compiles", () => {
    for (const { where, media } of mediaTypes()) {
      expect(media.schema, where).toBeDefined();
      expect(() => registry.compile(media.schema!), where).not.toThrow();
    }
  });

  it("uses no discriminator anywhere", () => {
    expect(JSON.stringify(doc)).not.toContain('"discriminator"');
  });
});

describe("examples", () => {
  it("every request and response media type has named examples, and each validates", () => {
    let checked = 0;
    for (const { where, media } of mediaTypes()) {
      const examples = Object.entries(media.examples ?? {});
      expect(examples.length, `${where} has no named examples`).toBeGreaterThan(0);
      const validate = registry.compile(media.schema!);
      for (const [name, example] of examples) {
        const { value } = deref<{ value?: unknown }>(doc, example as { value?: unknown });
        expect(validate(value), `${where} example "${name}": ${describeErrors(validate.errors)}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("every response declares the X-RateLimit headers, and every header example fits its schema", () => {
    for (const { path, method, operation } of operations(doc)) {
      for (const [status, ref] of Object.entries(operation.responses)) {
        const headers = deref<ResponseObject>(doc, ref).headers ?? {};
        for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
          const header = deref<{ required?: boolean; schema?: object; example?: unknown }>(doc, headers[name] as never);
          expect(header?.required, `${method} ${path} ${status} ${name}`).toBe(true);
          const validate = registry.compile(header.schema as never);
          expect(validate(header.example), `${name} example`).toBe(true);
        }
      }
    }
  });
});

describe("vendor extensions", () => {
  it("every x- extension used is defined in extensions.schema.json, and its value is well-formed", () => {
    const uses = extensionUses();
    expect(uses.length).toBeGreaterThan(20);
    for (const { at, name, value } of uses) {
      expect(EXTENSION_NAMES, `${at}: undocumented extension ${name}`).toContain(name);
      const validate = registry.ajv.getSchema(`${extensions.$id}#/$defs/${name}`)!;
      expect(validate(value), `${at}: ${describeErrors(validate.errors)}`).toBe(true);
    }
  });

  it("x-enumDescriptions describes exactly the enum's values", () => {
    for (const { at, name, value } of extensionUses()) {
      if (name !== "x-enumDescriptions") continue;
      const owner = deref<{ enum?: unknown[] }>(doc, { $ref: at.slice(0, -"/x-enumDescriptions".length) });
      expect(Object.keys(value as object).sort(), at).toEqual((owner.enum ?? []).map(String).sort());
    }
  });
});

describe("docs/extensions.md", () => {
  const page = readFileSync(new URL("../../docs/extensions.md", import.meta.url), "utf8");
  it("documents exactly the extensions defined in extensions.schema.json", () => {
    const documented = [...page.matchAll(/^\| \[`(x-[A-Za-z-]+)`\]/gm)].map((m) => m[1]!);
    expect(documented.sort()).toEqual([...EXTENSION_NAMES].sort());
    for (const name of EXTENSION_NAMES) expect(page, `a section for ${name}`).toContain(`## ${name}`);
  });

  it("documents exactly the x-not-shown vocabulary", () => {
    const vocabulary = (extensions.$defs["x-not-shown"].propertyNames.enum as string[]).slice().sort();
    const section = page.split(/^## x-not-shown/m)[1]!.split(/^## /m)[0]!;
    const rowKeys = [...section.matchAll(/^\| (`[a-z-]+`(?: \/ `[a-z-]+`)*) \|/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/`([a-z-]+)`/g)].map((key) => key[1]!),
    );
    expect(rowKeys.sort()).toEqual(vocabulary);
  });
});
