// @ts-check
/**
 * Rewrites Stryker's incremental result (tests/mutation/stryker-incremental.json, or the file named)
 * without the absolute paths of the checkout it ran in: Stryker keeps file names relative, but the
 * project's root, and the messages of mutants that failed a child process, hold the checkout's path
 * and the temporary copy's (.stryker-tmp/sandbox-XXXX/). Run after each run that writes the file
 * (package.json's test:mutation:baseline and test:mutation:ci), so the committed file is the same
 * wherever it was made.
 */
import { readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2] ?? "tests/mutation/stryker-incremental.json";
const report = JSON.parse(readFileSync(file, "utf8"));
const root = String(report.projectRoot ?? process.cwd()).replace(/\/+$/, "");
const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const absolute = new RegExp(`${escaped}/(?:\\.stryker-tmp/[^/\\s"]+/)?`, "g");

/** @param {unknown} value @returns {unknown} */
const relative = (value) =>
  typeof value === "string"
    ? value.replace(absolute, "")
    : Array.isArray(value)
      ? value.map(relative)
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([key, child]) => [relative(key), relative(child)]))
        : value;

const rewritten = /** @type {Record<string, unknown>} */ (relative(report));
rewritten.projectRoot = ".";
writeFileSync(file, `${JSON.stringify(rewritten, null, 2)}\n`);
