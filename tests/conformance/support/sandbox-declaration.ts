/**
 * The sandbox as the conformance tests run it: its declaration read as `npm run conformance` reads
 * conformance/targets/sandbox.json, and its default config (sandbox/config.ts), which
 * tests/support/fast-sandbox.ts makes quick. The fast config shortens the cooldown's pause, so the
 * declaration here says by how much, as a declaration of such a target would.
 */
import { readFileSync } from "node:fs";
import { CHECK_GROUPS } from "../../../conformance/checks/index.ts";
import { readTargetConfig, TARGET_DEFAULTS, type TargetConfig } from "../../../conformance/config.ts";
import type { Contract } from "../../../contract/contract.ts";
import { DEFAULT_CONFIG_FILE } from "../../../sandbox/config.ts";
import { FAST_COOLDOWN_SECONDS } from "../../support/fast-sandbox.ts";

export const SANDBOX_DECLARATION = "conformance/targets/sandbox.json";

export function sandboxDeclaration(contract: Contract): TargetConfig {
  return {
    ...readTargetConfig({ CONFORMANCE_CONFIG: SANDBOX_DECLARATION }, TARGET_DEFAULTS, contract, CHECK_GROUPS),
    cooldownPauseSeconds: FAST_COOLDOWN_SECONDS,
  };
}

export function sandboxDefaults(): { jobs?: object; limits?: object } {
  return JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { jobs?: object; limits?: object };
}
