/**
 * The routes tests name by the seed's label (`I-A`), never by slug: a build with MEDIA_SLUG_MAP
 * gives the routes their real slugs. The client's route table carries no labels (the runtime does
 * not read them), so they come from the price tables, which name each create route's model.
 */
import { routeTable, type AreaName } from "../../generated/client.ts";
import { priceTables, type PricedPath } from "../../generated/costs.ts";
import { createPath, type CreatePath } from "../../runtime/client/route-table.ts";

type Table = typeof routeTable;
type SlugIn<A extends AreaName> = keyof Table["areas"][A]["routes"] & string;
type ModelOf<P> = P extends PricedPath ? ((typeof priceTables)[P] extends { model: infer L extends string } ? L : never) : never;
type Label<A extends AreaName> = { [S in SlugIn<A>]: ModelOf<CreatePath<Table, A, S>> }[SlugIn<A>];
/** The slug of area `A`'s route labelled `L`, as a literal type. */
export type SlugOf<A extends AreaName, L extends Label<A>> = { [S in SlugIn<A>]: ModelOf<CreatePath<Table, A, S>> extends L ? S : never }[SlugIn<A>];
type AnyLabel = { [A in AreaName]: Label<A> }[AreaName];
/** The create path of the route labelled `L`, as a literal type. */
export type PathOf<L extends AnyLabel> = { [A in AreaName]: L extends Label<A> ? CreatePath<Table, A, SlugOf<A, L>> : never }[AreaName] & PricedPath;

const routes = Object.entries(routeTable.areas).flatMap(([area, { pollPath, routes }]) =>
  Object.keys(routes).map((slug) => ({ area, slug, path: createPath(pollPath, slug) })),
);

function find(label: string): { area: string; slug: string; path: string } {
  const found = routes.find(({ path }) => (priceTables as Record<string, { model?: string }>)[path]?.model === label);
  if (!found) throw new Error(`no create route is labelled ${label}`);
  return found;
}

/** The current slug of the route labelled `label` in `area`. */
export function slug<A extends AreaName, L extends Label<A>>(area: A, label: L): SlugOf<A, L> {
  const found = find(label);
  if (found.area !== area) throw new Error(`${label} is not a route of ${area}`);
  return found.slug as SlugOf<A, L>;
}

/** The create path of the route labelled `label` (a priced path: every create route has a price or a not-shown marker). */
export function pathOf<L extends AnyLabel>(label: L): PathOf<L> {
  return find(label).path as PathOf<L>;
}

/**
 * The create path of the route labelled `label`, typed only as a priced path: for tests that need no
 * literal type, since working out `PathOf` for every label is costly for the type checker.
 */
export function pricedPathOf(label: AnyLabel): PricedPath {
  return find(label).path as PricedPath;
}
