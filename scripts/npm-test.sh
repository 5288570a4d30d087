#!/usr/bin/env bash
# `npm test [-- ARGS]`: scripts/test.ts (the build, lint, type check and vitest), every argument
# passed to vitest; --help here prints what it does and runs nothing.
set -euo pipefail
for arg in "$@"; do
  case "$arg" in
    --help | -h)
      cat <<'USAGE'
usage: npm test [-- VITEST_ARGS]

The build (bundle, generate) beside Biome's check, then the lint, the type check and the unit tests
(vitest's unit project, shuffled with a printed seed), side by side where one does not read
another's output (scripts/test.ts, scripts/test-steps.ts). VITEST_ARGS go to vitest: a file or
a test name to run only those (npm test -- tests/docs), --seed N to replay an order
(npx vitest --help lists the rest). The longer suites have their own scripts: npm run
test:e2e, test:conformance, test:browser, test:dev, test:release.

Exit status: 0 every step passed, 1 one failed or did not run, 2 a bad --seed.
USAGE
      exit 0
      ;;
  esac
done
exec tsx "$(dirname "$0")/test.ts" "$@"
