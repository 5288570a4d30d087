/** The typed client the MCP server calls the service with: one per process, so that a Retry-After pause holds every session's requests. */
import {
  type AreaName,
  type ClientOptions,
  createClient,
  type QuotingMediaServiceClient,
} from "../../generated/client.ts";
import { quote } from "../../generated/costs.ts";
import type { McpSettings } from "./settings.ts";

/**
 * The longest Retry-After pause a tool call waits through: below the 60 s request timeout of common
 * MCP clients. A longer one ends the call with the seconds to wait (the client stays paused that long).
 */
export const MAX_PAUSE_MS = 30_000;

export function serviceClient(
  settings: Pick<McpSettings, "apiKey" | "baseUrl">,
  /** The tests' own poll intervals and counting fetch; the pause's maximum stays the server's. */
  overrides: Partial<ClientOptions<AreaName>> = {},
): QuotingMediaServiceClient {
  return createClient({
    headers: { "user-agent": "media-service-mcp" },
    ...overrides,
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    quote,
    maxPauseMs: MAX_PAUSE_MS,
  });
}
