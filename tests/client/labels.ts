/**
 * The routes tests name by the seed's label (`I-A`), never by slug: a build with MEDIA_SLUG_MAP
 * gives the routes their real slugs, and these look them up in the generated route table.
 */
import { routeTable, type AreaName } from "../../generated/client.ts";
import type { PricedPath } from "../../generated/costs.ts";

type Routes<A extends AreaName> = (typeof routeTable.areas)[A]["routes"];
type Label<A extends AreaName> = { [S in keyof Routes<A>]: Routes<A>[S] extends { label: infer L extends string } ? L : never }[keyof Routes<A>];
type AnyRoute = { [A in AreaName]: Routes<A>[keyof Routes<A>] }[AreaName];
/** The create path of the route labelled `L`, as a literal type. */
export type PathOf<L extends AnyRoute["label"]> = Extract<AnyRoute, { label: L }>["path"] & PricedPath;
/** The slug of area `A`'s route labelled `L`, as a literal type. */
export type SlugOf<A extends AreaName, L extends Label<A>> = { [S in keyof Routes<A>]: Routes<A>[S] extends { label: L } ? S : never }[keyof Routes<A>];

const routes = Object.values(routeTable.areas).flatMap((area) => Object.entries(area.routes as Record<string, { path: string; label: string }>));

function find(label: string): [slug: string, route: { path: string; label: string }] {
  const found = routes.find(([, route]) => route.label === label);
  if (!found) throw new Error(`no create route is labelled ${label}`);
  return found;
}

/** The current slug of the route labelled `label` in `area`. */
export function slug<A extends AreaName, L extends Label<A>>(area: A, label: L): SlugOf<A, L> {
  const [found] = find(label);
  if (!(found in routeTable.areas[area].routes)) throw new Error(`${label} is not a route of ${area}`);
  return found as SlugOf<A, L>;
}

/** The create path of the route labelled `label` (a priced path: every create route has a price or a not-shown marker). */
export function pathOf<L extends AnyRoute["label"]>(label: L): PathOf<L> {
  return find(label)[1].path as PathOf<L>;
}
