#!/usr/bin/env bash
# bench/cold-start.sh — the first k6 run right after the service starts, with and without the start-up warm-up,
# alternated. Per round and script: start the service (bin/run --no-build) with pinion.warm-up.enabled on or off,
# wait until it is ready and 10 s more, run the script's constant scenario once, stop the service.
#
#   K6=path/to/k6 SCRIPTS="follow mixed" ROUNDS=2 DURATION=1m WARMUPS="true false" bench/cold-start.sh
#
# WARMUPS: the warm-ups to run each script with, in order: "true" (the whole warm-up, as bin/run starts the service),
# "reads" (the warm-up without its write rounds: pinion.warm-up.write-rounds=0), "false" (none); "true false" by
# default.
#
# Needs the local stack seeded (bin/seed --users 100000) and the jar packaged (./mvnw package -DskipTests); uses port
# 8080, so no other bin/run may be running. Prints one line per run: script, warm-up, the p95 and p99 of all requests,
# the p50 and p99 of the first 5 s, and whether the script's thresholds held. k6 summaries and logs go to $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
K6=${K6:-k6}
SCRIPTS=${SCRIPTS:-"follow mixed"}
ROUNDS=${ROUNDS:-2}
DURATION=${DURATION:-1m}
WARMUPS=${WARMUPS:-"true false"}
OUT=${OUT:-/tmp/pinion-cold-start}
BASE=http://127.0.0.1:8080
mkdir -p "$OUT"
if curl -fsS -o /dev/null "$BASE/q/health/live" 2>/dev/null; then
  echo "a service already answers on $BASE: stop it first" >&2; exit 1
fi

app=
ready_s=
label() { case $1 in true) echo on ;; reads) echo reads ;; *) echo off ;; esac; }
start_app() { # $1: warm-up on (true), without its write rounds (reads) or off (false); sets app and ready_s
  local warm=(-Dpinion.warm-up.enabled="$1")
  [[ $1 == reads ]] && warm=(-Dpinion.warm-up.enabled=true -Dpinion.warm-up.write-rounds=0)
  bin/run --no-build -- -Dpinion.rate-limit.enabled=false "${warm[@]}" >"$OUT/app.log" 2>&1 &
  app=$!
  local started=$SECONDS
  until curl -fsS -o /dev/null "$BASE/q/health/ready" 2>/dev/null; do
    kill -0 "$app" 2>/dev/null || { echo "the service died: $OUT/app.log" >&2; exit 1; }
    (( SECONDS - started < 120 )) || { echo "not ready after 120 s: $OUT/app.log" >&2; exit 1; }
    sleep 0.5
  done
  ready_s=$(( SECONDS - started ))
}
stop_app() {
  [[ -n $app ]] && kill "$app" 2>/dev/null && wait "$app" 2>/dev/null || true
  app=
  while curl -fsS -o /dev/null "$BASE/q/health/live" 2>/dev/null; do sleep 0.5; done
}
trap stop_app EXIT

# p50 and p99 of http_req_duration within the first 5 s of a k6 CSV output
first_seconds() {
  python3 - "$1" <<'EOF'
import csv, sys
values, first = [], None
with open(sys.argv[1]) as f:
    for row in csv.DictReader(f):
        if row['metric_name'] != 'http_req_duration':
            continue
        t = int(row['timestamp'])
        first = t if first is None else first
        if t - first < 5:
            values.append(float(row['metric_value']))
values.sort()
print(f"{values[len(values) // 2]:.1f} {values[int(len(values) * 0.99)]:.1f}" if values else "- -")
EOF
}

printf '%-8s %-5s %-6s %9s %9s %12s %12s %s\n' script round warmup p95_ms p99_ms first5s_p50 first5s_p99 thresholds
for round in $(seq 1 "$ROUNDS"); do
  for script in $SCRIPTS; do
    for warm in $WARMUPS; do
      name="$script-$round-$(label "$warm")"
      start_app "$warm"
      sleep 10
      rc=0
      "$K6" run -q -e SCENARIO=constant -e DURATION="$DURATION" --summary-export "$OUT/$name.json" \
        --out csv="$OUT/$name.csv" "k6/$script.js" >"$OUT/$name.txt" 2>&1 || rc=$?
      stop_app
      read -r p95 p99 < <(python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['metrics']['http_req_duration']; print(round(m['p(95)'],1), round(m['p(99)'],1))" "$OUT/$name.json")
      read -r f50 f99 < <(first_seconds "$OUT/$name.csv")
      verdict=$([[ $rc == 0 ]] && echo pass || { [[ $rc == 99 ]] && echo FAIL || echo "error $rc"; })
      printf '%-8s %-5s %-6s %9s %9s %12s %12s %s (ready after %ss)\n' "$script" "$round" \
        "$(label "$warm")" "$p95" "$p99" "$f50" "$f99" "$verdict" "$ready_s"
    done
  done
done
