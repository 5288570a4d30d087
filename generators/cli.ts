/** `npm run generate`: runs every generator (generators/index.ts) over generated/openapi.json. */
import { loadBundle } from "../model/document.ts";
import { readServiceModel } from "../model/service-model.ts";
import { generateAll, writeGenerated } from "./index.ts";

try {
  const files = await generateAll(readServiceModel(loadBundle()));
  writeGenerated(files);
  console.log(`generated ${Object.keys(files).sort().join(", ") || "nothing"}`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
