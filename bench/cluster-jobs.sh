#!/usr/bin/env bash
# bench/cluster-jobs.sh — k6/jobs.js through bin/cluster's HAProxy with 1 and 3 instances (INSTANCES): the workers
# enqueue a batch, dequeue up to a batch from whichever instance the balancer picks, and ack it. For each instance
# count: bin/cluster up, a WARMUP run, then DURATION at RATE iterations/s, with jobs acked per second, dequeues that
# came back empty (k6/jobs.js's jobs_empty_dequeues), p99 per request, and the CPU of the instances together per job
# acked, so one instance and several compare at the same CPU.
#
#   bench/cluster-jobs.sh                 # INSTANCES="1 3"
#
# Needs a seeded stack (bin/seed --users 100000: its worker account), haproxy, k6 and a built jar (./mvnw package).
# Leaves the cluster down. INSTANCES ("1 3")  RATE (200)  BATCH (10)  DURATION (60s)  WARMUP (20s)  PARTITIONS (8)
# K6 (../shared/tools/k6)  SEED_DIR (.stack/seed)  STACK_DIR (.stack)  RESULTS (bench/data/results)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
INSTANCES=${INSTANCES:-1 3}
RATE=${RATE:-200}
BATCH=${BATCH:-10}
DURATION=${DURATION:-60s}
WARMUP=${WARMUP:-20s}
PARTITIONS=${PARTITIONS:-8}
K6=${K6:-../shared/tools/k6}
SEED_DIR=${SEED_DIR:-.stack/seed}
STACK_DIR=${STACK_DIR:-.stack}
RESULTS=${RESULTS:-bench/data/results}
BASE=http://127.0.0.1:${PINION_CLUSTER_PORT:-8080}
export STACK_DIR
[[ -x $K6 ]] || { echo "no k6 at $K6 (K6=...)" >&2; exit 1; }
[[ -s $SEED_DIR/manifest.json ]] || { echo "no $SEED_DIR/manifest.json: run bin/seed --users 100000 first" >&2; exit 1; }
manifest=$(cd "$SEED_DIR" && pwd -P)/manifest.json
# shellcheck source=lib/cpu.sh
source "$HERE/lib/cpu.sh"
# shellcheck source=lib/cluster.sh
source "$HERE/lib/cluster.sh"
out="$RESULTS/$(date -u +%Y%m%dT%H%M%SZ)-cluster-jobs"
mkdir -p "$out"
summary="$out/summary.txt"
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, jobs.js RATE=$RATE BATCH=$BATCH for $DURATION" | tee "$summary"

figures() { # summary.json -> "acked/s empty_dequeues dequeues p99_enqueue p99_dequeue p99_ack failed% acked"
  python3 -c 'import json,sys
m = json.load(open(sys.argv[1]))["metrics"]
def p99(name):
    v = m.get("http_req_duration{name:%s}" % name, {}).get("p(99)")
    return "-" if v is None else "%.0f" % v
print("%.0f" % m.get("jobs_acked", {}).get("rate", 0), int(m.get("jobs_empty_dequeues", {}).get("count", 0)),
      int(m["iterations"]["count"]),
      p99("jobs-enqueue"), p99("jobs-dequeue"), p99("jobs-ack"), "%.2f" % (100 * m["http_req_failed"]["value"]),
      int(m.get("jobs_acked", {}).get("count", 0)))' "$1"
}

for n in $INSTANCES; do
  cluster_up "$n" "$out/cluster-up-$n.log"
  queue="bench_jobs_${n}_$(date +%s)"
  run() { # label duration
    "$K6" run --quiet --summary-export "$out/$1.json" -e SCENARIO=constant -e BASE_URL="$BASE" -e MANIFEST="$manifest" \
      -e RATE="$RATE" -e BATCH="$BATCH" -e DURATION="$2" -e QUEUE="$queue" -e PARTITIONS="$PARTITIONS" k6/jobs.js \
      >"$out/$1.txt" 2>&1 || true
  }
  run "warmup-$n" "$WARMUP"
  cpu_start
  run "jobs-$n" "$DURATION"
  read -r acked_rate empty dequeues p99e p99d p99a failed acked <<<"$(figures "$out/jobs-$n.json")"
  printf '%d instance(s): %s jobs acked/s, %s of %s dequeues empty, p99 enqueue %s / dequeue %s / ack %s ms, %s%% failed\n' \
    "$n" "$acked_rate" "$empty" "$dequeues" "$p99e" "$p99d" "$p99a" "$failed" | tee -a "$summary"
  cpu_report "$acked" | sed 's/request/job/' | tee -a "$summary"
done
bin/cluster down >/dev/null 2>&1 || true
echo "raw output: $out" | tee -a "$summary"
