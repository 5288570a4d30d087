#!/usr/bin/env bash
# One-command set-up of a fresh machine: system packages, Node dependencies from the lockfile,
# then the main job (bundle the description and run the generators).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium drives the docs browser test (playwright-core never downloads a browser). It
# installs beside the Node dependencies: each mostly waits on its downloads.
apt_pid=
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: chromium is missing and installing it needs root (apt-get install chromium)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq chromium fonts-liberation >/dev/null) &
  apt_pid=$!
fi

npm ci --no-audit --no-fund
npm run build
# The type check once: npm test's (incremental, scripts/typecheck.sh) then checks only what changed.
npm run -s typecheck
if [ -n "$apt_pid" ] && ! wait "$apt_pid"; then
  echo "setup: apt-get install chromium fonts-liberation failed (its output is above)" >&2
  exit 1
fi
