#!/usr/bin/env bash
# bench/cluster-drill.sh — requests lost while the cluster is disturbed: k6/mixed.js and k6/follow.js together in
# their constant scenarios through bin/cluster's HAProxy for DURATION, and at AT seconds one of
#   none     nothing (the baseline: what the load alone fails)
#   kill     instance KILL_INSTANCE SIGKILLed (bin/cluster kill), started again RESTART_AFTER seconds later
#   rolling  bin/cluster restart: every instance in turn, each stopped with SIGTERM (graceful) and back in rotation
# Prints requests, failed requests and p99 of each script and of both, and the HAProxy counters of the run.
#
#   bench/cluster-drill.sh none kill rolling          # each drill in turn, on the cluster that is running
#
# Needs a running cluster (bin/cluster up --instances 3) on a seeded stack (bin/seed --users 100000) and k6.
# DURATION (120s; ROLLING_DURATION, 240s, for the rolling restart, which must end before the load does)  AT (20)  MIXED_RATE (100)  FOLLOW_RATE (200)  KILL_INSTANCE (2)  RESTART_AFTER (10)
# PAUSE (20: seconds between drills)  K6 (../shared/tools/k6)  BASE (http://127.0.0.1:8080)  SEED_DIR (.stack/seed)
# RESULTS (bench/data/results)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
DURATION=${DURATION:-120s}
ROLLING_DURATION=${ROLLING_DURATION:-240s}
AT=${AT:-20}
MIXED_RATE=${MIXED_RATE:-100}
FOLLOW_RATE=${FOLLOW_RATE:-200}
KILL_INSTANCE=${KILL_INSTANCE:-2}
RESTART_AFTER=${RESTART_AFTER:-10}
PAUSE=${PAUSE:-20}
K6=${K6:-../shared/tools/k6}
BASE=${BASE:-http://127.0.0.1:8080}
SEED_DIR=${SEED_DIR:-.stack/seed}
RESULTS=${RESULTS:-bench/data/results}
drills=("$@")
(( ${#drills[@]} )) || drills=(none kill rolling)
for d in "${drills[@]}"; do
  case $d in none|kill|rolling) ;; *) echo "unknown drill $d (none, kill, rolling)" >&2; exit 2 ;; esac
done
[[ -x $K6 ]] || { echo "no k6 at $K6 (K6=...)" >&2; exit 1; }
[[ -s $SEED_DIR/manifest.json ]] || { echo "no $SEED_DIR/manifest.json: run bin/seed --users 100000 first" >&2; exit 1; }
curl -fsS -o /dev/null "$BASE/q/health/ready" || { echo "no ready cluster at $BASE (bin/cluster up)" >&2; exit 1; }
manifest=$(cd "$SEED_DIR" && pwd -P)/manifest.json
out="$RESULTS/$(date -u +%Y%m%dT%H%M%SZ)-cluster-drill"
mkdir -p "$out"
summary="$out/summary.txt"
echo "commit $(git rev-parse --short HEAD), $(nproc) cores; $(bin/cluster status 2>/dev/null | grep -c 'UP') instance(s) up" \
  | tee "$summary"

counts() { # summary.json -> "requests failed p99ms"
  python3 -c 'import json,sys
m = json.load(open(sys.argv[1]))["metrics"]
print(m["http_reqs"]["count"], round(m["http_reqs"]["count"] * m["http_req_failed"]["value"]),
      "%.0f" % m["http_req_duration"]["p(99)"])' "$1"
}

for drill in "${drills[@]}"; do
  for script in mixed follow; do
    rate=$MIXED_RATE
    [[ $script == follow ]] && rate=$FOLLOW_RATE
    duration=$DURATION
    [[ $drill == rolling ]] && duration=$ROLLING_DURATION
    "$K6" run --quiet --summary-export "$out/$drill-$script.json" -e SCENARIO=constant -e BASE_URL="$BASE" \
      -e MANIFEST="$manifest" -e RATE="$rate" -e DURATION="$duration" "k6/$script.js" \
      >"$out/$drill-$script.txt" 2>&1 &
  done
  sleep "$AT"
  case $drill in
    kill)
      bin/cluster kill "$KILL_INSTANCE" >"$out/$drill-cluster.log" 2>&1
      sleep "$RESTART_AFTER"
      bin/cluster start "$KILL_INSTANCE" >>"$out/$drill-cluster.log" 2>&1 ;;
    rolling)
      start=$SECONDS
      bin/cluster restart >"$out/$drill-cluster.log" 2>&1
      echo "rolling restart took $(( SECONDS - start )) s" >>"$out/$drill-cluster.log"
      jobs -r | grep -q . || echo "warning: the load ended before the restart did (ROLLING_DURATION=...)" \
        | tee -a "$summary" ;;
  esac
  wait || true
  read -r mr mf mp <<<"$(counts "$out/$drill-mixed.json")"
  read -r fr ff fp <<<"$(counts "$out/$drill-follow.json")"
  total=$(( mr + fr )) failed=$(( mf + ff ))
  printf '%-8s %7d requests  %5d failed (%.3f%%)  p99 mixed %s ms, follow %s ms%s\n' "$drill" "$total" "$failed" \
    "$(awk -v f="$failed" -v t="$total" 'BEGIN { print t ? 100 * f / t : 0 }')" "$mp" "$fp" \
    "$(grep -ho 'rolling restart took.*' "$out/$drill-cluster.log" 2>/dev/null | sed 's/^/; /')" | tee -a "$summary"
  [[ $drill == "${drills[-1]}" ]] || sleep "$PAUSE"
done
echo "raw output: $out" | tee -a "$summary"
