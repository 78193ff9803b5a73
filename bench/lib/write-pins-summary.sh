#!/usr/bin/env bash
# bench/lib/write-pins-summary.sh — one k6/write-pins.js run in its constant scenario against a seeded service, as one
# SUMMARY line for bench/ab-jars.sh: the pool rows the fan-out pushed per second during the run (at a rate above what
# the machine keeps up with, the fan-out's capacity), the pin-create p99 and overall p99 from k6's JSON summary, and
# how long after the run the feed queues took to drain, and the service's CPU per request over the run and the drain
# (APP_PID: the service's pid).
#
#   K6=../shared/tools/k6 BASE_URL=http://127.0.0.1:18090 RATE=200 DURATION=60s LABEL=A bench/lib/write-pins-summary.sh
#
# MANIFEST (default .stack/seed/manifest.json, written by bin/seed; its tokens must verify with the service's key)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
K6=${K6:-$ROOT/../shared/tools/k6}
BASE_URL=${BASE_URL:-http://127.0.0.1:8080}
RATE=${RATE:-200}
DURATION=${DURATION:-60s}
LABEL=${LABEL:-}
MANIFEST=${MANIFEST:-$ROOT/.stack/seed/manifest.json}
OUT=$(mktemp -d)
source "$ROOT/bench/lib/metrics.sh"
METRICS=$(metrics_base "$BASE_URL")
QUEUES=(feed-fanout feed-pool-insert feed-persist feed-related feed-purge feed-follow-events feed-regenerate feed-trim)
token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["worker"]["token"])' "$MANIFEST")

pushed() {
  curl -fsS "$METRICS/q/metrics" | awk '/^pinion_feed_funnel_total[{].*stage="pushed"/ { s += $NF } END { printf "%.0f\n", s }'
}
backlog() {
  local total=0 n q
  for q in "${QUEUES[@]}"; do
    n=$(curl -fsS -H "Authorization: Bearer $token" "$BASE_URL/v1/queues/$q/stats" 2>/dev/null \
      | python3 -c 'import json,sys; c=json.load(sys.stdin)["counts"]; print(c.get("PENDING",0)+c.get("RUNNING",0))' \
      2>/dev/null || echo 0)
    total=$((total + n))
  done
  echo "$total"
}

cpu_ticks() { # the service's user + system CPU (clock ticks), when its pid is known (APP_PID, as bench/ab-jars.sh sets)
  if [[ -n ${APP_PID:-} && -r /proc/$APP_PID/stat ]]; then awk '{print $14 + $15}' "/proc/$APP_PID/stat"; else echo 0; fi
}

before=$(pushed)
cpu_before=$(cpu_ticks)
started=$(date +%s.%N)
MANIFEST=$MANIFEST SUMMARY_DIR=$OUT "$K6" run --quiet -e SCENARIO=constant -e RATE="$RATE" -e DURATION="$DURATION" \
  -e BASE_URL="$BASE_URL" "$ROOT/k6/write-pins.js" >"$OUT/k6.txt" 2>&1 || true
ended=$(date +%s.%N)
rows=$(( $(pushed) - before ))
waited=0
while [[ $(backlog) -gt 0 && $waited -lt 120 ]]; do sleep 1; waited=$((waited + 1)); done
cpu=$(( $(cpu_ticks) - cpu_before ))
python3 - "$OUT/write-pins-summary.json" "$rows" "$started" "$ended" "$waited" "$LABEL" "$RATE" "$cpu" \
  "$(getconf CLK_TCK)" <<'PY'
import json, sys
path, rows, started, ended, waited, label, rate, cpu, tck = sys.argv[1:]
metrics = json.load(open(path))["metrics"]
def p99(name):
    m = metrics.get(name, {})
    values = m.get("values", m)
    return values.get("p(99)", float("nan"))
seconds = float(ended) - float(started)
requests = metrics.get("http_reqs", {}).get("values", metrics.get("http_reqs", {})).get("count", 0)
cpu_ms = int(cpu) * 1000.0 / int(tck)
per_request = "%.2f ms" % (cpu_ms / requests) if requests and int(cpu) else "-"
print("SUMMARY write-pins label=%s rate=%s/s: %.0f rows/s  p99 %.1f ms (pin-create %.1f ms)  drained %s s"
      "  service cpu %s per request (run and drain)" % (label, rate, int(rows) / seconds, p99("http_req_duration"),
      p99("http_req_duration{name:pin-create}"), waited, per_request))
PY
rm -rf "$OUT"
