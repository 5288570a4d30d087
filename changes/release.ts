/**
 * `npm run release`: cuts a release of generated/openapi.json into releases/<info.version>/ and
 * rewrites docs/changelog.md. `npm run release -- --page` only rewrites the page.
 * Exit status 0 on success, 2 when the release is refused (the message says why).
 */
import { CHANGELOG_PAGE, writeChangelogPage } from "./changelog-page.ts";
import { cutRelease, shownPath } from "./releases.ts";

const args = process.argv.slice(2);
try {
  const unknown = args.find((arg) => arg !== "--page");
  if (unknown !== undefined) throw new Error(`unknown argument ${JSON.stringify(unknown)}; usage: npm run release [-- --page]`);
  if (!args.includes("--page")) {
    const target = cutRelease();
    console.log(target ? `release: wrote ${shownPath(target)}` : "release: this description is already released");
  }
  writeChangelogPage();
  console.log(`release: wrote ${shownPath(CHANGELOG_PAGE)}`);
} catch (error) {
  process.stderr.write(`release: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
