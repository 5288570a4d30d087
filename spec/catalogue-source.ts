/**
 * The catalogue as written, spec/rules.yaml: what the tests check against the specification, and
 * what `npm run generate` turns into generated/rules.json for the tools (spec/catalogue.ts).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { checkedCatalogue, type Catalogue } from "./catalogue.ts";

export const CATALOGUE_SOURCE = fileURLToPath(new URL("./rules.yaml", import.meta.url));

export function readCatalogueSource(file = CATALOGUE_SOURCE): Catalogue {
  return checkedCatalogue(parse(readFileSync(file, "utf8")), file);
}
