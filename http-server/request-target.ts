/**
 * The request target as the servers read it, without `new URL(target, base)`: that throws on targets
 * a client may send (`//x:99999`, `//[`, `*`), and a throw there once ended the sandbox. A target is
 * a path (origin form) or, as HTTP/1.1 allows, an absolute `http(s)://` URL; its percent-escapes
 * must be well formed and decode to UTF-8, since the router decodes path parameters and the rules
 * read query values; and its path has no dot segments.
 */
import type { Router } from "../model/router.ts";
import { HTTP_METHODS } from "../model/document.ts";
import type { AreaModel, ServiceModel } from "../model/service-model.ts";
import { HTTP_CODES } from "./error-codes.ts";

export interface Target {
  /** The path as sent (still percent-encoded), which the router matches. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The path and query as sent (origin form), to relay the request. */
  readonly relative: string;
}

export type TargetResult = { readonly target: Target } | { readonly problem: string };

/** The first malformed escape of `text` (`%` without two hex digits, or escapes that are not UTF-8), or null. */
function escapeProblem(text: string, part: string): string | null {
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(text);
  if (bad)
    return `${part}: malformed percent-encoding at character ${bad.index + 1} ("${text.slice(bad.index, bad.index + 3)}"); write % as %25`;
  try {
    decodeURIComponent(text);
  } catch {
    return `${part}: its percent-escapes do not decode to UTF-8 text`;
  }
  return null;
}

/**
 * `.` and `..` segments (also escaped): clients resolve them before sending, and a server behind a
 * proxy (Prism behind the mock's front) would see another path than the one routed.
 */
function dotSegmentProblem(path: string): string | null {
  const dot = path.split("/").find((segment) => /^(\.|%2e){1,2}$/i.test(segment));
  return dot === undefined ? null : `path: has the dot segment "${dot}"; resolve . and .. before sending`;
}

/** Reads a request target; a problem names the rule it breaks. */
export function readTarget(raw: string): TargetResult {
  let target = raw;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || "/";
  if (!target.startsWith("/"))
    return { problem: `request target: must be a path starting with "/" (got ${JSON.stringify(raw.slice(0, 80))})` };
  const hash = target.indexOf("#");
  if (hash >= 0) target = target.slice(0, hash);
  const mark = target.indexOf("?");
  // Stryker disable next-line EqualityOperator: equivalent: the target starts with "/", so a "?" is never at 0
  const path = mark >= 0 ? target.slice(0, mark) : target;
  // Stryker disable next-line EqualityOperator: equivalent: as above
  const search = mark >= 0 ? target.slice(mark + 1) : "";
  const problem =
    escapeProblem(path, "path") ?? escapeProblem(search.replace(/\+/g, " "), "query") ?? dotSegmentProblem(path);
  return problem ? { problem } : { target: { path, query: new URLSearchParams(search), relative: target } };
}

const METHODS = HTTP_METHODS.map((method) => method.toUpperCase());

/** The paths under which each area's create routes take the model's slug as last segment (`/v1/images/`). */
function createPrefixes(model: Pick<ServiceModel, "areas">): Map<string, AreaModel> {
  return new Map(
    model.areas.flatMap((area) =>
      area.createRoutes.map((route) => [route.path.slice(0, route.path.lastIndexOf("/") + 1), area] as const),
    ),
  );
}

/**
 * The answer to a request the router matches no operation of: a POST to an area's create path with
 * a slug that is no model of this build is the specification's "unavailable model" (400 with the
 * description's invalid-request type and code), not a 405 because the poll route's `{id}` matches
 * it; else 405 with `Allow` where the path serves other methods, else 404.
 */
export function unrouted(
  router: Router,
  model: Pick<ServiceModel, "areas" | "errors">,
  method: string,
  path: string,
): { status: 400 | 404 | 405; type: string; code: string; message: string; headers: Record<string, string> } {
  const cut = path.lastIndexOf("/") + 1;
  const area = method === "POST" && cut < path.length ? createPrefixes(model).get(path.slice(0, cut)) : undefined;
  if (area) {
    const { status, type, code } = model.errors.invalidRequest;
    return {
      status,
      type,
      code,
      message: `${path.slice(cut)} is not a model of this build; POST ${path.slice(0, cut)}<model> takes ${area.createRoutes.map((route) => route.slug).join(", ")}.`,
      headers: {},
    };
  }
  const allowed = METHODS.filter((candidate) => router.match(candidate, path) !== undefined).join(", ");
  if (!allowed)
    return {
      status: 404,
      ...HTTP_CODES.notFound,
      message: `${method} ${path} is not a route of the description.`,
      headers: {},
    };
  return {
    status: 405,
    ...HTTP_CODES.methodNotAllowed,
    message: `${path} answers ${allowed}, not ${method}.`,
    headers: { allow: allowed },
  };
}
