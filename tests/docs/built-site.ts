/** Builds the docs site into a temporary folder and serves it on 127.0.0.1 for one test file. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { buildSite } from "../../docs-src/site.ts";
import { serveStatic, type RunningServer } from "../../docs-src/static-server.ts";
import type { OpenApiDocument } from "../../model/document.ts";

export interface BuiltSite {
  dir: string;
  server: RunningServer;
  remove(): Promise<void>;
}

export async function buildAndServe(doc: OpenApiDocument): Promise<BuiltSite> {
  const dir = mkdtempSync(join(tmpdir(), "docs-site-"));
  buildSite(doc, dir);
  const server = await serveStatic(dir, 0);
  return {
    dir,
    server,
    remove: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Builds and serves the site once for the calling test file (its hooks remove it); returns a getter. */
export function siteForThisFile(doc: OpenApiDocument): () => BuiltSite {
  let site: BuiltSite | undefined;
  beforeAll(async () => {
    site = await buildAndServe(doc);
  });
  afterAll(async () => {
    await site?.remove();
  });
  return () => {
    if (!site) throw new Error("the site is built in beforeAll; read it inside a test");
    return site;
  };
}
