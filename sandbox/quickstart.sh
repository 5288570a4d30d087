#!/usr/bin/env bash
set -euo pipefail
URL=${SANDBOX_URL:-http://127.0.0.1:4020}
AUTH='Authorization: Bearer sandbox-demo-key'
MODEL=${MODEL_SLUG:-i-a}  # the I-A model's slug in this build (a slug map may change it)
curl -s "$URL/v1/account/credits" -H "$AUTH"; echo
JOB=$(curl -s -X POST "$URL/v1/images/$MODEL" -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"prompt": "A lighthouse at dawn", "num_images": 2}')
echo "$JOB"
ID=$(echo "$JOB" | sed -E 's/.*"id":"([^"]+)".*/\1/')
until curl -s "$URL/v1/images/$ID" -H "$AUTH" | grep '"status":"succeeded"'; do sleep 1; done
curl -s "$URL/v1/account/credits" -H "$AUTH"; echo
