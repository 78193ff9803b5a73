#!/usr/bin/env bash
# bench/run-queue-enqueue.sh — enqueue throughput of a running Pinion (bin/run by default; bench_admin is made
# admin and worker by bench/admin-account.sh), measured with wrk, which costs far less CPU than a JVM client on a
# 2-core box, beside the raw durable INSERT rate of the stack's MariaDB at the same concurrency (bench/lib/raw-insert.sh).
#
#   bench/run-queue-enqueue.sh                 both scenarios: single (1 job per POST, 5 connections) and
#                                              batch (10 jobs per POST, 10 connections)
#
# Per scenario: a fresh queue of PARTITIONS partitions, a 5 s warm-up, then RUNS runs of
#   wrk -t1 -c<conns> -d$DURATION --latency -s bench/wrk/enqueue.lua $BASE/v1/queues/<q>/jobs -- <token> <batch>
# and a summary line with the medians of jobs/s, p50 and p99, the CPU seconds of the app and of mariadbd
# (utime+stime from /proc) over each run, and of the group commit's stages from the service's metrics (jobs per
# INSERT, wait for the INSERT in flight, INSERT with its commit: p50 over the last minutes); then the raw rate
# (rows/s of autocommitted INSERTs of <batch> rows from <conns> clients with mysqlslap) after each run, and the
# median ratio of jobs/s to it. Non-2xx answers fail the run. At the end of a scenario the queue's stored jobs are
# counted (GET .../stats): at least every job answered 201, at most the requests in flight when wrk stopped more.
#
# BASE (http://127.0.0.1:8080)  RUNS (3)  DURATION (20s)  PARTITIONS (8)  APP_PID (else $APP_DIR/bench-app.pid,
# else the process listening on BASE's port)  APP_DIR (/tmp/pinion-bench)  RESULTS (bench/data/results)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
BASE=${BASE:-http://127.0.0.1:8080}
source "$(dirname "${BASH_SOURCE[0]}")/lib/metrics.sh"
METRICS=$(metrics_base "$BASE")
RUNS=${RUNS:-3}
DURATION=${DURATION:-20s}
PARTITIONS=${PARTITIONS:-8}
APP_DIR=${APP_DIR:-/tmp/pinion-bench}
RESULTS=${RESULTS:-bench/data/results}
source "$(dirname "${BASH_SOURCE[0]}")/lib/cpu.sh"
# the service: APP_PID, else bench/app.sh's, else the process listening on BASE's port (not the peer's Quarkus app)
APP_PID=${APP_PID:-$(cat "$APP_DIR/bench-app.pid" 2>/dev/null || service_pid)}
source bench/lib/raw-insert.sh
mkdir -p "$RESULTS"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

bash bench/admin-account.sh bench_admin bench-admin-password "$BASE"
token=$(curl -fsS -XPOST "$BASE/v1/sessions" -H 'Content-Type: application/json' \
  -d '{"username":"bench_admin","password":"bench-admin-password"}' | sed 's/.*"token":"\([^"]*\)".*/\1/')
ticks() { # utime+stime in clock ticks of the given pids
  local total=0 pid fields
  for pid in "$@"; do
    read -r -a fields <"/proc/$pid/stat" || continue
    total=$((total + fields[13] + fields[14]))
  done
  echo "$total"
}
db_pids=$(pgrep -x mariadbd || pgrep -x mysqld || true)
hz=$(getconf CLK_TCK)
# The group commit's stages from the service's metrics: "gc_jobs_p50=… gc_wait_p50_ms=… gc_insert_p50_ms=…".
group_commit() {
  curl -fsS "$METRICS/q/metrics" 2>/dev/null | awk '
    /^pinion_queue_group_commit_jobs\{quantile="0.5"/ {j = $2}
    /^pinion_queue_group_commit_wait_seconds\{quantile="0.5"/ {w = $2 * 1000}
    /^pinion_queue_group_commit_insert_seconds\{quantile="0.5"/ {i = $2 * 1000}
    END {printf "gc_jobs_p50=%s gc_wait_p50_ms=%.2f gc_insert_p50_ms=%.2f", j == "" ? "na" : j, w, i}'
}
answered() { awk '/requests in/ {print $1}' "$1"; } # requests wrk saw answered (all 2xx once Non-2xx is absent)
median() { sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%g\n", (a[NR/2]+a[NR/2+1])/2}'; }
to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; print v}'; }

stamp=$(date -u +%Y%m%dT%H%M%SZ)
for scenario in ${SCENARIOS:-single batch}; do
  if [[ $scenario == single ]]; then batch=1 conns=5; else batch=10 conns=10; fi
  queue="bench-wrk-$scenario-$(date +%s)"
  curl -fsS -o /dev/null -XPOST "$BASE/v1/queues" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"name\":\"$queue\",\"partitions\":$PARTITIONS}"
  url="$BASE/v1/queues/$queue/jobs"
  wrk -t1 -c"$conns" -d5s -s bench/wrk/enqueue.lua "$url" -- "$token" "$batch" >"$RESULTS/$stamp-enqueue-$scenario-0.txt"
  answered=$(answered "$RESULTS/$stamp-enqueue-$scenario-0.txt")
  : >"$RESULTS/$stamp-enqueue-$scenario.tsv"
  for run in $(seq 1 "$RUNS"); do
    out="$RESULTS/$stamp-enqueue-$scenario-$run.txt"
    a0=$(ticks "$APP_PID"); d0=$(ticks $db_pids)
    wrk -t1 -c"$conns" -d"$DURATION" --latency -s bench/wrk/enqueue.lua "$url" -- "$token" "$batch" >"$out"
    a1=$(ticks "$APP_PID"); d1=$(ticks $db_pids)
    if grep -q "Non-2xx" "$out"; then echo "run $run: non-2xx answers, see $out" >&2; exit 1; fi
    answered=$((answered + $(answered "$out")))
    rps=$(awk '/Requests\/sec/ {print $2}' "$out")
    p50=$(awk '$1 == "50%" {print $2}' "$out" | to_ms)
    p99=$(awk '$1 == "99%" {print $2}' "$out" | to_ms)
    jobs=$(awk -v r="$rps" -v b="$batch" 'BEGIN {printf "%.0f", r * b}')
    app_cpu=$(awk -v t=$((a1 - a0)) -v hz="$hz" 'BEGIN {printf "%.1f", t / hz}')
    db_cpu=$(awk -v t=$((d1 - d0)) -v hz="$hz" 'BEGIN {printf "%.1f", t / hz}')
    raw=$(raw_insert_rate "$conns" "$batch")
    ratio=$(awk -v j="$jobs" -v r="$raw" 'BEGIN {if (r + 0 > 0) printf "%.2f", j / r; else print "na"}')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$jobs" "$p50" "$p99" "$app_cpu" "$db_cpu" "$raw" "$ratio" \
      >>"$RESULTS/$stamp-enqueue-$scenario.tsv"
    echo "enqueue-$scenario run $run: jobs/s=$jobs req/s=$rps p50=${p50}ms p99=${p99}ms cpu app=${app_cpu}s" \
         "mariadbd=${db_cpu}s raw_rows/s=$raw ratio=$ratio"
  done
  # every job wrk saw answered 201 is stored, and no more than the requests still in flight when each wrk stopped
  stored=$(curl -fsS "$BASE/v1/queues/$queue/stats" -H "Authorization: Bearer $token" | python3 -c '
import json, sys
print(sum(json.load(sys.stdin)["counts"].values()))')
  expected=$((answered * batch)) slack=$(((RUNS + 1) * conns * batch))
  if (( stored < expected || stored > expected + slack )); then
    echo "enqueue-$scenario: $stored jobs stored, $expected answered 201 (up to $slack more in flight): check FAILED" >&2
    exit 1
  fi
  echo "enqueue-$scenario: $stored jobs stored, $expected answered 201 by wrk (+ up to $slack in flight): check=ok"
  f="$RESULTS/$stamp-enqueue-$scenario.tsv"
  echo "SUMMARY enqueue-$scenario batch=$batch conns=$conns runs=$RUNS jobs_per_s=$(cut -f1 "$f" | median)" \
       "p50_ms=$(cut -f2 "$f" | median) p99_ms=$(cut -f3 "$f" | median) app_cpu_s=$(cut -f4 "$f" | median)" \
       "mariadbd_cpu_s=$(cut -f5 "$f" | median) raw_rows_per_s=$(cut -f6 "$f" | median)" \
       "vs_raw=$(cut -f7 "$f" | median) $(group_commit)"
  curl -fsS -o /dev/null -XDELETE "$BASE/v1/queues/$queue" -H "Authorization: Bearer $token"
done
