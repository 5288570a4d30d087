/**
 * The curl sample (docs-src/curl-sample.ts): GET without `-X`, other methods with it; the path with
 * its parameters filled and its query; the key from `$API_KEY`; a body as JSON, said so in its
 * header, quoted for the shell even when it holds a single quote.
 */
import { describe, expect, it } from "vitest";
import { curlSample } from "../../docs-src/curl-sample.ts";

describe("curlSample", () => {
  it("sends a body as JSON, single-quoted for the shell", () => {
    const sample = curlSample({
      method: "post",
      template: "/v1/images/{slug}",
      pathParams: { slug: "image-model-a" },
      query: {},
      body: { prompt: "it's a fox" },
    });
    expect(sample).toBe(
      [
        'curl -X POST "$BASE_URL/v1/images/image-model-a"',
        '-H "Authorization: Bearer $API_KEY"',
        '-H "Content-Type: application/json"',
        `-d '{\n  "prompt": "it'\\''s a fox"\n}'`,
      ].join(" \\\n  "),
    );
  });

  it("gives a GET no method flag and no body headers", () => {
    const sample = curlSample({
      method: "get",
      template: "/v1/jobs",
      pathParams: {},
      query: { limit: "2" },
      body: undefined,
    });
    expect(sample).toBe('curl "$BASE_URL/v1/jobs?limit=2" \\\n  -H "Authorization: Bearer $API_KEY"');
  });
});
