/**
 * The sandbox's default config made quick enough for conformance runs in tests. Its clock runs a
 * hundred times faster with a default job time of 60 s, so image, video and audio jobs take 0.6 s
 * (long enough for polls to see them processing) and 3D jobs, which the description says take 2 to
 * 5 minutes, 1.2 s. Request windows last 10 s instead of a minute, so a run paced by them waits
 * seconds; the per-key limit is the description's (a faultless run's main key sends about 520
 * requests, the rate-limit burst spends the free key's whole window), the per-IP one wide enough
 * for both.
 */
export function fastSandboxConfig(defaults: { jobs?: object }): object {
  return {
    ...defaults,
    clock: { speed: 100 },
    jobs: { ...defaults.jobs, defaultDurationSeconds: 60 },
    limits: { requests: { perKey: 600, perSourceIp: 6_000, windowSeconds: 10 } },
  };
}
