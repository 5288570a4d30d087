/**
 * llms.txt (https://llmstxt.org): the site's name and summary, then a link to the Markdown copy of
 * every page, for readers that are programs.
 */
import type { OpenApiDocument } from "../model/document.ts";
import { markdownCopyFile, REFERENCE_SPEC_FILE, type SitePage } from "./site-pages.ts";

/** `about`: what the page holds, when its name does not say it ("" for none). */
export function llmsTxt(doc: OpenApiDocument, pages: readonly { page: SitePage; about: string }[]): string {
  const link = ({ page, about }: { page: SitePage; about: string }): string =>
    `- [${page.nav}](${markdownCopyFile(page)})${about ? `: ${about}` : ""}`;
  const guides = pages.filter(({ page }) => page.kind !== "reference");
  const reference = pages.filter(({ page }) => page.kind === "reference");
  const summary = String(doc.info.summary ?? "")
    .trim()
    .replace(/\s*\n\s*/g, " ");
  return `${[
    `# ${doc.info.title}`,
    ...(summary ? [`> ${summary}`] : []),
    `Version ${doc.info.version}. Every page of this documentation has a Markdown copy beside it (the same name ending in .md); they are listed here.`,
    `## Guides\n\n${guides.map(link).join("\n")}`,
    `## Reference\n\n${[...reference.map(link), `- [OpenAPI description](${REFERENCE_SPEC_FILE}): the OpenAPI 3.1 description the reference shows, with its code samples`].join("\n")}`,
  ].join("\n\n")}\n`;
}
