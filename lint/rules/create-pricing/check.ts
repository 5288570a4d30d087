import type { Finding, HouseRule } from "../../finding.ts";
import { isObject } from "../../refs.ts";
import { createRoutes } from "../../routes.ts";

/** Every create operation records its price in x-pricing, or marks it x-not-shown.price (or both, where partly shown). */
const rule: HouseRule = {
  description:
    "The cost tables and the quote function read each create route's standard price from x-pricing; where the specification shows no price, x-not-shown.price says so.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const { path, where, operation } of createRoutes(doc)) {
      const notShown = operation["x-not-shown"];
      if (operation["x-pricing"] === undefined && !(isObject(notShown) && notShown.price !== undefined)) {
        findings.push({
          path: where,
          message: `POST ${path} has no price: add x-pricing with the specification's standard credit price, or x-not-shown.price saying the price is not shown (both where it is partly shown).`,
        });
      }
    }
    return findings;
  },
};

export default rule;
