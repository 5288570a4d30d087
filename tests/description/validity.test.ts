import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { BUNDLE_JSON } from "../../model/document.ts";
import { doc } from "../support/description.ts";

describe("the bundled description", () => {
  it("is valid OpenAPI 3.1 by an independent validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(BUNDLE_JSON);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("declares the 2020-12 dialect, the interface version and the {base_url} server", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(doc.info.version).toBe("2026-06-20");
    expect(doc.servers?.[0]?.url).toBe("{base_url}");
    expect(doc.servers?.[0]?.variables?.base_url?.default).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it("applies HTTP bearer security to every operation", () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({ bearerAuth: { type: "http", scheme: "bearer" } });
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item) as Array<{ security?: unknown }>) {
        expect(op.security).toBeUndefined();
      }
    }
  });
});
