/**
 * The pages of the docs site, in navigation order. Guides are Markdown under docs/guides/; the
 * price tables page is the pricing generator's docs/pricing.md; generated pages are Markdown made
 * at build time (EXTRA_PAGES); the reference page is Redoc. Every page also gets a Markdown copy
 * (`<name>.md`) listed in llms.txt.
 */
import type { OpenApiDocument } from "../model/document.ts";
import { workflowPages } from "./workflow-pages.ts";

export interface MarkdownPage {
  kind: "markdown";
  /** Output file name in the site. */
  file: string;
  /** Source, relative to the project root. */
  source: string;
  nav: string;
}

/** A page whose Markdown is made at build time (from the description or other project files). */
export interface GeneratedPage {
  kind: "generated";
  file: string;
  nav: string;
  /** Where the page's Markdown comes from, relative to the project root (named in errors and llms.txt). */
  source: string;
  /** The page's Markdown, starting with its "# Title"; rendered like a guide (raw HTML shown as text). */
  markdown(doc: OpenApiDocument): string;
}

export interface ReferencePage {
  kind: "reference";
  file: string;
  nav: string;
}

export type SitePage = MarkdownPage | GeneratedPage | ReferencePage;

const guide = (name: string, nav: string): MarkdownPage => ({
  kind: "markdown",
  file: `${name}.html`,
  source: `docs/guides/${name}.md`,
  nav,
});

/**
 * Pages made at build time, shown after the guides and before the reference: the workflows' step
 * lists, one page per workflows/*.arazzo.yaml. Each is in the sidebar, the search index, llms.txt
 * and has its Markdown copy.
 */
export const EXTRA_PAGES: GeneratedPage[] = workflowPages();

/** The rules catalogue's page, which a build given a conformance run ends with its coverage. */
export const RULES_PAGE_FILE = "rules.html";

export const SITE_PAGES: SitePage[] = [
  { kind: "markdown", file: "index.html", source: "docs/guides/overview.md", nav: "Overview" },
  guide("getting-started", "Getting started"),
  guide("jobs-and-polling", "Jobs and polling"),
  guide("errors", "Errors"),
  guide("limits", "Limits"),
  guide("billing", "Billing"),
  { kind: "markdown", file: "prices.html", source: "docs/pricing.md", nav: "Price tables" },
  guide("versioning", "Versioning"),
  guide("mcp-server", "MCP server for agents"),
  guide("release-from-ci", "Release from CI"),
  { kind: "markdown", file: "changelog.html", source: "docs/changelog.md", nav: "Changelog" },
  { kind: "markdown", file: RULES_PAGE_FILE, source: "docs/rules.md", nav: "Rules and their checks" },
  guide("not-shown", "Not shown"),
  ...EXTRA_PAGES,
  { kind: "reference", file: "reference.html", nav: "API reference" },
];

/**
 * The search's weight of a page's entries (search-data.ts): the implementers' rules catalogue and
 * the changelog name every word of the service in lists of rule ids and changes, and would push
 * the guide that explains it down; the price tables too, a little. Every other page: 1.
 */
const SEARCH_WEIGHTS: Readonly<Record<string, number>> = {
  [RULES_PAGE_FILE]: 0.3,
  "changelog.html": 0.4,
  "prices.html": 0.8,
};

export const searchWeight = (page: SitePage): number => SEARCH_WEIGHTS[page.file] ?? 1;

/** A page's Markdown copy, beside it: `index.html` -> `index.md`. */
export const markdownCopyFile = (page: SitePage): string => page.file.replace(/\.html$/, ".md");

/**
 * The reference page's scripts: the docs-only copy of the bundle (with code samples) and the
 * console's data, set as a global so the page reads them from disk too; Redoc; the page's own.
 */
export const REFERENCE_DATA_FILE = "reference-data.js";
export const REDOC_SCRIPT_FILE = "redoc.standalone.js";
export const REFERENCE_SCRIPT_FILE = "reference.js";
/** Every page's script: the search box and the narrow-screen menu. */
export const SITE_SCRIPT_FILE = "site.js";
/** The search index, loaded by site.js when the search box is first used. */
export const SEARCH_INDEX_FILE = "search-index.js";
/** The same description as a file, for readers and tools that want it. */
export const REFERENCE_SPEC_FILE = "openapi.json";
export const STYLESHEET_FILE = "site.css";
export const LLMS_FILE = "llms.txt";
/**
 * Not a file: what the docs server answers about the servers started in this project,
 * `{ "sandbox": URL or null }`, for the try-it console's base URL (http-server/local-servers.ts).
 */
export const LOCAL_SERVERS_PATH = "local-servers.json";
