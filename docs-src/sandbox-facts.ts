/**
 * What the docs say of the local sandbox, read from where it is set: its default address (the
 * port sandbox/config.ts names, which sandbox/cli.ts listens on without --port or SANDBOX_PORT) and the demo key of its default
 * configuration (sandbox/default-config.json, its first account's first key).
 */
import { readFileSync } from "node:fs";
import { DEFAULT_CONFIG_FILE, DEFAULT_SANDBOX_PORT } from "../sandbox/config.ts";

/** `npm run sandbox`'s address without --port or SANDBOX_PORT. */
export const SANDBOX_DEFAULT_URL = `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`;

export function sandboxDemoKey(): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as {
    accounts: Record<string, { keys: string[] }>;
  };
  const key = Object.values(config.accounts)[0]?.keys[0];
  if (!key) throw new Error(`${DEFAULT_CONFIG_FILE}: no account with a key for the docs to show`);
  return key;
}
