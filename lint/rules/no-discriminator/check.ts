import type { HouseRule } from "../../finding.ts";
import { allSchemas } from "../../schema-walk.ts";

export const DISCRIMINATOR = "discriminator";

const rule: HouseRule = {
  description: "Our mock and generators mishandle discriminator; variants must be separable by their own shapes.",
  check: (doc) =>
    [...allSchemas(doc)]
      .filter(({ schema }) => schema[DISCRIMINATOR] !== undefined)
      .map(({ path }) => ({
        path: [...path, DISCRIMINATOR],
        message:
          "discriminator is not allowed (our mock and generators mishandle it): remove it and make the variants separable by their own shapes (const, required, not).",
      })),
};

export default rule;
