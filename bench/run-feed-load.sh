#!/usr/bin/env bash
# bench/run-feed-load.sh — the home feed under a write load, against a seeded service (bin/seed --users 100000,
# bin/run; the manifest's worker account holds the admin and worker roles bin/seed granted it), with a real k6.
#
#   K6=../shared/tools/k6 RATE=50 DURATION=5m bench/run-feed-load.sh            write-pins.js constant at RATE/s
#   K6=../shared/tools/k6 RATE=200 DURATION=5m PROBE=1 bench/run-feed-load.sh   … with k6/freshness.js beside it
#
# Prints, from the service's metrics before and after: pins fanned out by mode, pool rows pushed per pushed pin,
# receivers skipped as inactive; then how long after the run the feed-* queues took to drain (PENDING + RUNNING
# = 0), sampling every second. The k6 summaries go to $OUT (default /tmp/pinion-feed-load).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
K6=${K6:-k6}
BASE_URL=${BASE_URL:-http://127.0.0.1:8080}
source "$(dirname "${BASH_SOURCE[0]}")/lib/metrics.sh"
METRICS=$(metrics_base "$BASE_URL")
RATE=${RATE:-50}
DURATION=${DURATION:-5m}
PROBE=${PROBE:-0}
OUT=${OUT:-/tmp/pinion-feed-load}
MANIFEST=${MANIFEST:-$ROOT/.stack/seed/manifest.json}
QUEUES=(feed-fanout feed-pool-insert feed-persist feed-related feed-purge feed-follow-events feed-regenerate feed-trim)
mkdir -p "$OUT"
token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["worker"]["token"])' "$MANIFEST")

metric() { # sum of a metric's samples whose line matches $1
  curl -fsS "$METRICS/q/metrics" | awk -v pat="$1" '$0 ~ pat && $1 !~ /^#/ { s += $NF } END { printf "%.0f\n", s }'
}
snapshot() {
  # the funnel's series print their tags in order: reason, source, stage
  local f='^pinion_feed_funnel_total[{]'
  for m in "${f}reason=\"pushed\",source=\"following\",stage=\"routed\"" \
           "${f}reason=\"pulled\",source=\"following\",stage=\"routed\"" \
           "${f}reason=\"nobody\",source=\"following\",stage=\"routed\"" "${f}.*stage=\"pushed\"" \
           "${f}reason=\"inactive\",.*stage=\"skipped\"" '^pinion_feed_pulled_pins_total'; do
    metric "$m"
  done
}
backlog() { # PENDING + RUNNING over the feed queues
  local total=0 n
  for q in "${QUEUES[@]}"; do
    n=$(curl -fsS -H "Authorization: Bearer $token" "$BASE_URL/v1/queues/$q/stats" 2>/dev/null \
      | python3 -c 'import json,sys; c=json.load(sys.stdin)["counts"]; print(c.get("PENDING",0)+c.get("RUNNING",0))' 2>/dev/null || echo 0)
    total=$((total + n))
  done
  echo "$total"
}

read -r -a before <<<"$(snapshot | tr '\n' ' ')"
echo "backlog before: $(backlog)"
if [[ $PROBE == 1 ]]; then
  MANIFEST=$MANIFEST "$K6" run --quiet --address 127.0.0.1:6566 -e DURATION="$DURATION" -e BASE_URL="$BASE_URL" \
    --summary-export "$OUT/freshness.json" \
    "$ROOT/k6/freshness.js" > "$OUT/freshness.txt" 2>&1 &
  probe=$!
fi
MANIFEST=$MANIFEST "$K6" run --quiet -e SCENARIO=constant -e RATE="$RATE" -e DURATION="$DURATION" -e BASE_URL="$BASE_URL" \
  --summary-export "$OUT/write-pins-$RATE.json" "$ROOT/k6/write-pins.js" > "$OUT/write-pins-$RATE.txt" 2>&1 || true
ended=$(date +%s.%N)
left=$(backlog)
waited=0
while [[ $left -gt 0 && $waited -lt 600 ]]; do sleep 1; waited=$((waited + 1)); left=$(backlog); done
drained=$(python3 -c "import time; print(round(time.time() - $ended, 1))")
[[ $PROBE == 1 ]] && wait "$probe" || true
read -r -a after <<<"$(snapshot | tr '\n' ' ')"
pushed=$((after[0] - before[0])); pulled=$((after[1] - before[1])); nobody=$((after[2] - before[2]))
rows=$((after[3] - before[3])); skipped=$((after[4] - before[4]))
echo "write-pins constant $RATE/s for $DURATION"
echo "  pins fanned out: pushed $pushed, pulled $pulled, nobody $nobody"
echo "  pool rows pushed: $rows ($(python3 -c "print(round($rows / max(1, $pushed), 1))") per pushed pin); receivers skipped as inactive: $skipped"
echo "  feed queues drained (PENDING + RUNNING = 0) $drained s after the run (backlog left: $left)"
# from the scripts' JSON summaries (k6/lib/summary.js), not their text
python3 - "$OUT/write-pins-$RATE.json" "$OUT/freshness.json" "$PROBE" <<'PY'
import json, os, sys
def show(path, keep):
    metrics = json.load(open(path))["metrics"]
    for name in sorted(metrics):
        if keep(name):
            values = {k: v for k, v in metrics[name].items() if k not in ("thresholds",)}
            print("  %s: %s" % (name, ", ".join("%s=%s" % (k, round(v, 2) if isinstance(v, float) else v)
                                                   for k, v in values.items())))
show(sys.argv[1], lambda n: n.startswith("http_req_duration") or n in ("checks", "http_req_failed", "iterations"))
if sys.argv[3] == "1" and os.path.exists(sys.argv[2]):
    show(sys.argv[2], lambda n: n.startswith("freshness_"))
PY
