#!/usr/bin/env bash
# `npm run typecheck [-- TSC_BUILD_ARGS]`: tsc over all TypeScript in build mode, which skips the
# whole check when none of the project's files changed since the last check that passed (a run of
# npm test then spends under a second on it instead of about 7 s of CPU). Build mode compares the
# times of the project's own files only, so after an install (npm rewrites
# node_modules/.package-lock.json) the last result is dropped and everything is checked again.
set -euo pipefail
for arg in "$@"; do
  case "$arg" in
    --help | -h)
      cat <<'USAGE'
usage: npm run typecheck [-- TSC_BUILD_ARGS]

Type-checks every TypeScript file of tsconfig.json (the client's type tests included) with
`tsc -b`, incrementally: its last result is kept in node_modules/.cache/tsc/, and a run after
no change, or after changes to a few files, checks only what they touch. TSC_BUILD_ARGS go to
`tsc -b` (--verbose says why it checks; --force checks everything).

Exit status: 0 no type error, 1 or 2 errors (tsc prints them).
USAGE
      exit 0
      ;;
  esac
done
cd "$(dirname "$0")/.."
info=node_modules/.cache/tsc/tsconfig.tsbuildinfo
if [ -f "$info" ] && [ node_modules/.package-lock.json -nt "$info" ]; then rm -f "$info"; fi
exec tsc -b tsconfig.json "$@"
