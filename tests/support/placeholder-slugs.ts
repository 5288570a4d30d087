import { afterAll, beforeAll, vi } from "vitest";

/**
 * For a test file whose documents carry the placeholder slugs (lint fixtures, releases): no slug map
 * applies while its tests run, whatever map the project builds with. Test files share their
 * worker's process (vitest's isolate: false), so the setting is undone once the file is done, for
 * the files that read the project's map.
 */
export function withoutSlugMap(): void {
  beforeAll(() => {
    vi.stubEnv("MEDIA_SLUG_MAP", "none");
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });
}
