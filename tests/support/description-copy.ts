/** A scratch copy of the description's sources, for tests that bundle a changed description. */
import { cpSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** A copy of openapi/ (`root`: its openapi.yaml) and an empty output folder (`out`) in `work`, for a bundle to read and write. */
export function copyDescription(): { work: string; root: string; out: string } {
  const work = mkdtempSync(join(tmpdir(), "bundle-test-"));
  cpSync(fileURLToPath(new URL("../../openapi", import.meta.url)), join(work, "openapi"), { recursive: true });
  const out = join(work, "out");
  mkdirSync(out);
  return { work, root: join(work, "openapi", "openapi.yaml"), out };
}
