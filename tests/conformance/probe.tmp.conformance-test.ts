import { it } from "vitest";
import { resultsWith } from "./support/mutation.ts";
it("probe", { timeout: 300_000 }, async () => {
  for (const fault of ["stock-page-one-past", "stock-result-without-html-credit", "rate-limit-message-without-seconds"] as const) {
    const results = await resultsWith([fault]);
    for (const r of results.filter((x) => x.group === "stock-results" || x.name.includes("message"))) console.log(fault, r.outcome, r.name, r.detail?.slice(0, 300));
  }
});
