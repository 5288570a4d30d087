#!/usr/bin/env bash
# `npm run check:fresh`: regenerates everything derived from openapi/ and fails when the committed
# files differ from it. Exit 0 fresh, 1 stale (or the build failed), 2 a bad argument.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: npm run check:fresh

Rebuilds the bundle and everything generated from openapi/ (npm run build), then fails when
the committed files of generated/ and docs/ differ from what the build wrote.

Exit status: 0 fresh, 1 stale (the files named) or the build failed, 2 a bad argument."
for arg in "$@"; do
  case "$arg" in
    --help | -h)
      echo "$usage"
      exit 0
      ;;
    *)
      echo "check:fresh: unknown argument \"$arg\" (--help shows the usage)" >&2
      exit 2
      ;;
  esac
done

npm run -s build >/dev/null
stale=$(git status --porcelain -- generated docs)
if [ -n "$stale" ]; then
  echo "Generated files are stale: run 'npm run build' and commit the result." >&2
  echo "$stale" >&2
  git --no-pager diff --stat -- generated docs >&2
  exit 1
fi
echo "generated files are fresh"
