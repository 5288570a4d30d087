/**
 * The registry of checks, in the order they start (they then run concurrently; see STAGE in
 * check.ts). Adding a check is one file in this folder exporting a `Check`, and one line here.
 */
import type { Check } from "../check.ts";
import { auth } from "./auth.ts";
import { billing } from "./billing.ts";
import { concurrency } from "./concurrency.ts";
import { cooldown } from "./cooldown.ts";
import { costQuotes } from "./cost-quotes.ts";
import { createResponse } from "./create-response.ts";
import { errorExamples } from "./error-examples.ts";
import { generatedRequests } from "./generated-requests.ts";
import { lifecycle } from "./lifecycle.ts";
import { mediaLimits } from "./media-limits.ts";
import { modelPrices } from "./model-prices.ts";
import { operations } from "./operations.ts";
import { planGate } from "./plan-gate.ts";
import { planPrices } from "./plan-prices.ts";
import { prices } from "./prices.ts";
import { prismProxy } from "./prism-proxy.ts";
import { rateLimits } from "./rate-limits.ts";
import { requestValidation } from "./request-validation.ts";
import { retiredModel } from "./retired-model.ts";
import { sequences } from "./sequences.ts";
import { sourceIpLimit } from "./source-ip-limit.ts";
import { spendLimit } from "./spend-limit.ts";
import { stockResults } from "./stock-results.ts";
import { uploadsWindow } from "./uploads-window.ts";

export const CHECKS: readonly Check[] = [
  // First: it needs the account's balance to itself before any other check charges it.
  billing,
  // Its jobs are pledged to the billing check's measurement.
  prices,
  operations,
  requestValidation,
  mediaLimits,
  generatedRequests(() => CHECKS),
  auth,
  errorExamples,
  lifecycle,
  createResponse,
  concurrency,
  planGate,
  retiredModel,
  spendLimit,
  planPrices,
  cooldown,
  uploadsWindow,
  stockResults,
  modelPrices,
  costQuotes,
  rateLimits,
  sourceIpLimit,
  prismProxy,
  // Its estimate is what the budget leaves after the others'.
  sequences(() => CHECKS),
];

export const CHECK_GROUPS: readonly string[] = CHECKS.map((check) => check.group);
