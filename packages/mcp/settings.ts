/**
 * The MCP server's settings: the API key from the environment only (never a flag, which a process
 * list would show), the service's address, and the user's money limits. Each bad value is a
 * UsageError naming the flag or variable and the rule.
 */
import { setting, UsageError } from "../../tools/command.ts";

export const KEY_VARIABLE = "MEDIA_API_KEY";
export const BASE_URL_VARIABLE = "MEDIA_BASE_URL";
export const BUDGET_VARIABLE = "MEDIA_MCP_BUDGET";
export const CONFIRM_VARIABLE = "MEDIA_MCP_CONFIRM_ABOVE";

/** The longest a `wait_job` call may block: below the 60 s request timeout of common MCP clients, the SDK's included. */
export const MAX_WAIT_SECONDS = 50;

export interface McpSettings {
  readonly apiKey: string;
  readonly baseUrl: string;
  /** Credits a session may commit to creates; null: no limit (the user said `unlimited`); undefined: not set, every priced create is refused. */
  readonly budget: number | null | undefined;
  /** A create quoted above this many credits asks the user first, where the client supports elicitation; null: never. */
  readonly confirmAbove: number | null;
}

function credits(text: string, from: string): number {
  if (!/^\d+$/.test(text.trim()))
    throw new UsageError(`${from}: "${text.slice(0, 40)}" is not a number of credits (a whole number from 0)`);
  return Number(text.trim());
}

/** Flags as the bin reads them; every one may also come from its variable. */
export interface SettingFlags {
  readonly "base-url"?: string | undefined;
  readonly budget?: string | undefined;
  readonly "confirm-above"?: string | undefined;
}

export function readSettings(flags: SettingFlags): McpSettings {
  const apiKey = process.env[KEY_VARIABLE]?.trim();
  if (!apiKey)
    throw new UsageError(`${KEY_VARIABLE} is not set: the API key comes from the environment only, never from a flag`);
  const baseUrl = setting(flags["base-url"], "--base-url", BASE_URL_VARIABLE, "");
  if (!baseUrl.value)
    throw new UsageError(
      `--base-url or ${BASE_URL_VARIABLE}: the service's root address is required (the sandbox: http://127.0.0.1:4020)`,
    );
  if (!/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(baseUrl.value))
    throw new UsageError(
      `${baseUrl.from}: "${baseUrl.value.slice(0, 100)}" is not an http(s) address without query or fragment`,
    );
  if (baseUrl.value.includes(apiKey)) throw new UsageError(`${baseUrl.from}: the address holds the API key`);
  const budget = setting(flags.budget, "--budget", BUDGET_VARIABLE, "");
  const confirm = setting(flags["confirm-above"], "--confirm-above", CONFIRM_VARIABLE, "");
  return {
    apiKey,
    baseUrl: baseUrl.value.replace(/\/+$/, ""),
    budget:
      budget.value === "" ? undefined : budget.value.trim() === "unlimited" ? null : credits(budget.value, budget.from),
    confirmAbove: confirm.value === "" ? null : credits(confirm.value, confirm.from),
  };
}
