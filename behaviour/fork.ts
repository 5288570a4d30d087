/**
 * A copy of a service state that can go its own way: what the oracle of the conformance suite keeps
 * for each state a target may be in, where the specification leaves a choice (a job that may have
 * ended, an account whose earlier failures are unknown). What changes is copied (accounts, ledgers,
 * plans, jobs, windows, cooldowns); what a state is built from (the service model, the settings,
 * the choices, compiled schemas, routes) is shared, as are functions.
 */
import type { ServiceState } from "./state.ts";

/** Copies `value`, keeping prototypes, shared references and cycles; objects in `shared` are not copied. */
function copy<T>(value: T, shared: ReadonlySet<object>, copies: Map<object, unknown>): T {
  if (typeof value !== "object" || value === null || shared.has(value)) return value;
  const found = copies.get(value);
  if (found !== undefined) return found as T;
  if (value instanceof Map) {
    const map = new Map();
    copies.set(value, map);
    for (const [key, item] of value) map.set(copy(key, shared, copies), copy(item, shared, copies));
    return map as T;
  }
  if (value instanceof Set) {
    const set = new Set();
    copies.set(value, set);
    for (const item of value) set.add(copy(item, shared, copies));
    return set as T;
  }
  const target = (Array.isArray(value) ? [] : Object.create(Object.getPrototypeOf(value))) as Record<string, unknown>;
  copies.set(value, target);
  for (const key of Object.keys(value)) target[key] = copy((value as Record<string, unknown>)[key], shared, copies);
  return target as T;
}

/** What every fork of `state` shares: what it was built from, and what nothing changes. */
function sharedBy(state: ServiceState): Set<object> {
  return new Set<object>([
    state.model,
    state.config,
    state.choices,
    state.responses,
    state.requestSchemas,
    state.routes,
    state.areas,
    state.priceTables,
    state.cooldowns.rules,
    ...Object.values(state.config.accounts),
    ...state.model.createRoutes,
    ...state.areas.values(),
  ]);
}

const sharing = new WeakMap<object, Set<object>>();

/** A state equal to `state` that changes apart from it. */
export function fork(state: ServiceState): ServiceState {
  let shared = sharing.get(state.choices);
  if (!shared || !shared.has(state.config)) sharing.set(state.choices, (shared = sharedBy(state)));
  return copy(state, shared, new Map());
}
