/**
 * The description as the MCP server reads it: generated/mcp-catalog.ts (generators/mcp.ts), typed
 * here, and the look-ups the tools share (a model by slug or label, an area by name).
 */
import { mcpCatalog } from "../../generated/mcp-catalog.ts";

export interface CatalogModel {
  readonly label: string;
  readonly slug: string;
  /** The typed client's area (`image`, `model3d`, ...). */
  readonly area: string;
  readonly title: string;
  readonly description: string;
  /** False where the create response names no job id: the job cannot be followed. */
  readonly followable: boolean;
  /** Media input fields and the forms each takes (null: not shown). */
  readonly media: Readonly<Record<string, readonly string[] | null | undefined>>;
  /** The description's request schema, without its x- extensions and titles. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export interface CatalogArea {
  readonly segment: string;
  readonly pollPath: string;
  /** The specification's words for the polling cadence, or null. */
  readonly cadence: string | null;
  readonly intervalSeconds: { readonly min: number; readonly max: number } | null;
  readonly typicalDurationSeconds: { readonly min: number; readonly max: number } | null;
  readonly retention: { readonly hours: number; readonly approximate: boolean } | null;
}

export interface Catalog {
  /** The service's interface version. */
  readonly version: string;
  readonly areas: Readonly<Record<string, CatalogArea>>;
  readonly models: readonly CatalogModel[];
  readonly statuses: {
    readonly terminal: readonly string[];
    readonly success: string;
    readonly descriptions: Readonly<Record<string, string>>;
  };
  readonly moderation: {
    readonly field: string;
    readonly description: string;
    readonly reasons: Readonly<Record<string, string>>;
  };
  readonly cooldown: {
    readonly pauseSeconds: number;
    readonly growthSeconds: number;
    readonly consecutiveFailures: number;
  };
}

export const CATALOG: Catalog = mcpCatalog;

/** The model a slug or a label (`i-a`, `I-A`) names, or undefined. */
export function findModel(name: string, catalog: Catalog = CATALOG): CatalogModel | undefined {
  return catalog.models.find((model) => model.slug === name || model.label === name);
}

export const areaNames = (catalog: Catalog = CATALOG): string[] => Object.keys(catalog.areas);
