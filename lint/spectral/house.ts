/**
 * The Spectral function behind every house rule of .spectral.yaml: runs the check the rule names
 * (`functionOptions.check`) on the whole document. Spectral loads only JavaScript, so
 * lint/build-functions.ts compiles this file into lint/.functions/house.js.
 */
import { createRulesetFunction } from "@stoplight/spectral-core";
import type { OpenApiDocument } from "../../model/document.ts";
import { readSlugMap } from "../../model/slug-map.ts";
import { CHECKS, type CheckName } from "../checks/index.ts";

export default createRulesetFunction<unknown, { check: CheckName }>(
  {
    input: null,
    options: {
      type: "object",
      additionalProperties: false,
      required: ["check"],
      properties: { check: { enum: Object.keys(CHECKS) } },
    },
  },
  (input, { check }) => CHECKS[check](input as OpenApiDocument, { slugMap: readSlugMap(process.env.MEDIA_SLUG_MAP) }),
);
