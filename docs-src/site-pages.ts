/**
 * The pages of the docs site, in navigation order. Guides are Markdown under docs/guides/; the
 * price tables page is the pricing generator's docs/pricing.md; the reference page is Redoc.
 */
export interface MarkdownPage {
  kind: "markdown";
  /** Output file name in the site. */
  file: string;
  /** Source, relative to the project root. */
  source: string;
  nav: string;
}

export interface ReferencePage {
  kind: "reference";
  file: string;
  nav: string;
}

export type SitePage = MarkdownPage | ReferencePage;

const guide = (name: string, nav: string): MarkdownPage => ({ kind: "markdown", file: `${name}.html`, source: `docs/guides/${name}.md`, nav });

export const SITE_PAGES: SitePage[] = [
  { kind: "markdown", file: "index.html", source: "docs/guides/overview.md", nav: "Overview" },
  guide("getting-started", "Getting started"),
  guide("jobs-and-polling", "Jobs and polling"),
  guide("errors", "Errors"),
  guide("limits", "Limits"),
  guide("billing", "Billing"),
  { kind: "markdown", file: "prices.html", source: "docs/pricing.md", nav: "Price tables" },
  guide("versioning", "Versioning"),
  guide("release-from-ci", "Release from CI"),
  { kind: "markdown", file: "changelog.html", source: "docs/changelog.md", nav: "Changelog" },
  guide("not-shown", "Not shown"),
  { kind: "reference", file: "reference.html", nav: "API reference" },
];

/**
 * The reference page's scripts: the docs-only copy of the bundle (with code samples) and the
 * console's data, set as a global so the page reads them from disk too; Redoc; the page's own.
 */
export const REFERENCE_DATA_FILE = "reference-data.js";
export const REDOC_SCRIPT_FILE = "redoc.standalone.js";
export const REFERENCE_SCRIPT_FILE = "reference.js";
/** The same description as a file, for readers and tools that want it. */
export const REFERENCE_SPEC_FILE = "openapi.json";
export const STYLESHEET_FILE = "site.css";
