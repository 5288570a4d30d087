/**
 * The sandbox's default config made quick enough for conformance runs in tests. Its clock runs a
 * hundred times faster, with image, video and audio jobs taking `jobSeconds` (0.6 s by default:
 * long enough for polls to see them processing) and 3D jobs, which the description says take 2 to
 * 5 minutes, 1.2 s. Request windows last 10 s instead of a minute, so a run paced by them waits
 * seconds; the per-key limit stays the description's (a faultless run's main key sends fewer
 * requests than it allows, the rate-limit burst spends the free key's whole window), the per-IP
 * one is wide enough for both keys at once. The shortened windows are no longer the description's,
 * so the per-IP burst (sourceIpBurst) is declared against it only with them (windowSeconds). The
 * cooldown pauses FAST_COOLDOWN_SECONDS, growing by as much with each further failure, at real time
 * (the description's ten minutes would hold a run up); a declaration for it says so with
 * `cooldownPauseSeconds`. The other limits stay the given config's.
 */
/** The request windows' length in the fast config. */
export const FAST_WINDOW_SECONDS = 10;

/** The cooldown's first pause and its growth in the fast config, in real seconds. */
export const FAST_COOLDOWN_SECONDS = 2;

export function fastSandboxConfig(defaults: { jobs?: object; limits?: object }, jobSeconds = 0.6): object {
  const speed = 100;
  return {
    ...defaults,
    clock: { speed },
    jobs: { ...defaults.jobs, defaultDurationSeconds: jobSeconds * speed },
    limits: {
      ...defaults.limits,
      requests: { perSourceIp: 6_000, windowSeconds: FAST_WINDOW_SECONDS },
      cooldown: { pauseSeconds: FAST_COOLDOWN_SECONDS, growthSeconds: FAST_COOLDOWN_SECONDS },
    },
  };
}
