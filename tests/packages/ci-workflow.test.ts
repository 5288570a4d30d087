/**
 * The CI recipe of docs/guides/release-from-ci.md: the workflow's steps run the commands the guide
 * lists, in order, ending with the release command the registry test (registry.release-test.ts)
 * runs as it is written there.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT, RELEASE_WORKFLOW, workflowCommands } from "../support/packages.ts";

const RELEASE_COMMANDS = ["npm ci", "npm test", "npm run diff:check", 'npm run release -- --registry "$NPM_REGISTRY"'];

describe("the release workflow users copy", () => {
  it("runs npm ci, npm test, npm run diff:check and npm run release -- --registry, in that order", () => {
    expect(workflowCommands()).toEqual(RELEASE_COMMANDS);
  });

  it("is the one the guide names, with its commands in the same order", () => {
    const guide = readFileSync(join(PROJECT, "docs/guides/release-from-ci.md"), "utf8");
    expect(guide).toContain(relative(PROJECT, RELEASE_WORKFLOW));
    expect(guide).toContain(RELEASE_COMMANDS.map((command) => `    ${command}\n`).join(""));
  });
});
