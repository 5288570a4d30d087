/**
 * Redoc's bundle made to load nothing from outside the site (docs-src/redoc-bundle.ts), on small
 * stand-ins for its text: the logo inlined and the source map dropped, and a Redoc whose text moved
 * either spot, or names a CDN elsewhere, fails the build in one message naming the file.
 */
import { describe, expect, it } from "vitest";
import { offlineBundle } from "../../docs-src/redoc-bundle.ts";

const LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/%3E";
const MAP = "\n//# sourceMappingURL=redoc.standalone.js.map\n";

describe("offlineBundle", () => {
  it("inlines the logo as an empty SVG and drops the trailing source-map comment", () => {
    expect(offlineBundle(`a("${LOGO}");b();${MAP}`, "redoc.js")).toBe(`a("${EMPTY_SVG}");b();\n`);
  });

  it.each([
    ["no logo", `a();${MAP}`, "redoc.js: expected the Redocly logo URL once, found it 0 times"],
    [
      "the logo twice",
      `a("${LOGO}");b("${LOGO}");${MAP}`,
      "redoc.js: expected the Redocly logo URL once, found it 2 times",
    ],
    ["no source map", `a("${LOGO}");`, "redoc.js: no trailing source-map comment"],
    ["a source map that does not end the file", `a("${LOGO}");${MAP}b();`, "redoc.js: no trailing source-map comment"],
    [
      "another CDN",
      `a("${LOGO}");f("https://cdn.example.com/x.js");g("http://cdn.other.net");${MAP}`,
      "redoc.js: still refers to https://cdn.example.com, http://cdn.other.net",
    ],
  ])("refuses a bundle with %s", (_case, text, message) => {
    expect(() => offlineBundle(text, "redoc.js")).toThrow(new Error(message));
  });
});
