#!/usr/bin/env bash
# Creates the queue k6/wrk/jobs.lua works on, as the manifest's worker (the service must list it as admin:
# bin/run -- -Dpinion.auth.admins=seed_worker -Dpinion.auth.workers=seed_worker). 201 created and
# 409 queue_exists are both fine. k6/jobs.js creates its queue itself in setup().
#
#   bash k6/wrk/setup-queue.sh [--dry-run]
#
# Env: BASE_URL (http://127.0.0.1:8080), SEED_DIR (.stack/seed), QUEUE (k6_jobs), PARTITIONS (4), WORKER_TOKEN
# (default: the worker's token in $SEED_DIR/manifest.json). --dry-run prints the request instead of sending it.
set -euo pipefail

BASE_URL=${BASE_URL:-http://127.0.0.1:8080}
SEED_DIR=${SEED_DIR:-.stack/seed}
QUEUE=${QUEUE:-k6_jobs}
PARTITIONS=${PARTITIONS:-4}
manifest=$SEED_DIR/manifest.json

if [[ -z ${WORKER_TOKEN:-} ]]; then
  [[ -r $manifest ]] || { echo "setup-queue: no $manifest (run bin/seed, or set SEED_DIR or WORKER_TOKEN)" >&2; exit 1; }
  # the "token" of the "worker" object; the manifest may be pretty-printed over several lines
  WORKER_TOKEN=$(tr -d '\r\n' < "$manifest" | grep -o '"worker"[[:space:]]*:[[:space:]]*{[^}]*}' \
    | grep -o '"token"[[:space:]]*:[[:space:]]*"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' || true)
  [[ -n $WORKER_TOKEN ]] || { echo "setup-queue: no worker token in $manifest" >&2; exit 1; }
fi

body=$(printf '{"name":"%s","partitions":%d,"leaseMs":60000,"retentionMs":3600000}' "$QUEUE" "$PARTITIONS")

if [[ ${1:-} == --dry-run ]]; then
  echo "POST $BASE_URL/v1/queues"
  echo "Authorization: Bearer ${WORKER_TOKEN:0:12}..."
  echo "$body"
  exit 0
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
code=$(curl -sS -o "$out" -w '%{http_code}' -X POST "$BASE_URL/v1/queues" \
  -H "Authorization: Bearer $WORKER_TOKEN" -H 'Content-Type: application/json' --data "$body")
case $code in
  201) echo "queue $QUEUE created" ;;
  409)
    if grep -q '"queue_exists"' "$out"; then echo "queue $QUEUE exists"; else cat "$out" >&2; echo >&2; exit 1; fi ;;
  *)
    echo "setup-queue: POST /v1/queues answered $code:" >&2
    cat "$out" >&2; echo >&2
    exit 1 ;;
esac
