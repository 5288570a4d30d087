/**
 * The routes tests name by the seed's label (`I-A`), never by slug: a build with MEDIA_SLUG_MAP
 * gives the routes their real slugs. generated/models.ts holds each label's area and slug.
 */
import { routeTable, type AreaName } from "../../generated/client.ts";
import type { PricedPath } from "../../generated/costs.ts";
import { models } from "../../generated/models.ts";
import { createPath, type CreatePath, type Slug } from "../../runtime/client/route-table.ts";

type Table = typeof routeTable;
type Models = typeof models;
type Label = keyof Models;
type LabelIn<A extends AreaName> = { [L in Label]: Models[L]["area"] extends A ? L : never }[Label];
/** The slug of the route labelled `L`, as a literal type. */
export type SlugOf<L extends Label> = Models[L]["slug"];
/** The create path of the route labelled `L`, as a literal type. */
export type PathOf<L extends Label> = L extends Label
  ? Models[L] extends { area: infer A extends AreaName }
    ? (Models[L] extends { slug: infer S extends Slug<Table, A> } ? CreatePath<Table, A, S> : never) & PricedPath
    : never
  : never;

/** The current slug of area `area`'s route labelled `label`. */
export function slug<A extends AreaName, L extends LabelIn<A>>(area: A, label: L): SlugOf<L> {
  if (models[label].area !== area) throw new Error(`${label} is not a route of ${area}`);
  return models[label].slug;
}

/** The create path of the route labelled `label` (a priced path: every create route has a price or a not-shown marker). */
export function pathOf<L extends Label>(label: L): PathOf<L> {
  const { area, slug } = models[label];
  return createPath(routeTable.areas[area].pollPath, slug) as PathOf<L>;
}

/** The create path of the route labelled `label`, typed only as a priced path, for tests that need no literal type. */
export function pricedPathOf(label: Label): PricedPath {
  return pathOf(label);
}
