/** Redraws the README's diagram of the floors from tests/structure/floors.ts. */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withDiagram } from "./floors.ts";

const readme = fileURLToPath(new URL("../../README.md", import.meta.url));
writeFileSync(readme, withDiagram(readFileSync(readme, "utf8")));
console.log("README.md: floors redrawn");
