#!/usr/bin/env bash
# bench/run-tuning.sh — GET /v1/pins/{id} under different MySQL pool settings, restarting the app for each.
#
#   bench/run-tuning.sh [scenario ...]      default scenario: get-pin
#
# For every POOLS x PIPES combination: bench/app.sh stop; bench/app.sh start -Dpinion.mysql.pool-size=P
# -Dpinion.mysql.pipelining-limit=L; bench/run-api.sh (warm-up + RUNS runs) with LABEL=poolP-pipeL.
# Leaves the app stopped. POOLS ("8 16 32"), PIPES ("1 16"), plus everything bench/run-api.sh reads.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
POOLS=${POOLS:-8 16 32}
PIPES=${PIPES:-1 16}
scenarios=("$@")
(( ${#scenarios[@]} )) || scenarios=(get-pin)
for pool in $POOLS; do
  for pipe in $PIPES; do
    echo "=== pool-size $pool, pipelining-limit $pipe"
    "$HERE/app.sh" stop >/dev/null
    "$HERE/app.sh" start -Dpinion.mysql.pool-size="$pool" -Dpinion.mysql.pipelining-limit="$pipe"
    LABEL=pool$pool-pipe$pipe "$HERE/run-api.sh" "${scenarios[@]}" | grep -E '^(SUMMARY|   run)'
  done
done
"$HERE/app.sh" stop
