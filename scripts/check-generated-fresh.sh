#!/usr/bin/env bash
# Regenerates everything derived from openapi/ and fails when the committed files differ from it.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s build >/dev/null
stale=$(git status --porcelain -- generated docs)
if [ -n "$stale" ]; then
  echo "Generated files are stale: run 'npm run build' and commit the result." >&2
  echo "$stale" >&2
  git --no-pager diff --stat -- generated docs >&2
  exit 1
fi
echo "generated files are fresh"
