/**
 * The names of the client's own members (ClientMembers), which no area or operation may take: read
 * by the client generator, in a module of its own so that no client bundle ships the list. The
 * type check keeps it equal to ClientMembers's keys.
 */
import type { ClientMembers } from "./media-client.ts";
import type { RouteTable } from "./route-table.ts";

export const CLIENT_MEMBERS: readonly string[] = Object.keys({
  wait: 0,
  rateLimit: 0,
  pausedUntil: 0,
  api: 0,
} satisfies Record<keyof ClientMembers<object, RouteTable>, 0>);
