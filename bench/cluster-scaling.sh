#!/usr/bin/env bash
# bench/cluster-scaling.sh — the read path through bin/cluster's HAProxy with 1, 2 and 3 instances on this machine:
#   get-pin       GET /v1/pins/{id} over PIN_SAMPLE random pins (the same sample as bench/run-peer.sh)
#   follow-check  GET /v1/users/{a}/following/users/{b} (half edges, half mostly not)
# For each instance count: bin/cluster down, bin/cluster up --instances N, a walk over the pins on each instance
# (each object cache warm, as in a cluster that has been serving) and a warm-up of the checks, then ROUNDS rounds of each (medians printed), with the CPU each role used per request: the instances
# together (service), HAProxy, and the stack's servers.
#
#   bench/cluster-scaling.sh            # INSTANCES="1 2 3"
#
# Needs a seeded stack (bin/seed --users 100000), haproxy and a built jar (./mvnw package). Leaves the cluster down.
# INSTANCES ("1 2 3")  ROUNDS (3)  DURATION (15s)  PIN_WARMUP (15s)  THREADS (2)  CONNS (64)  PIN_SAMPLE (100000)
# SAMPLE_SEED (42)  SEED_DIR (.stack/seed)  STACK_DIR (.stack)  RESULTS (bench/data/results)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd -P)
cd "$HERE/.."

INSTANCES=${INSTANCES:-1 2 3}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-15s}
PIN_WARMUP=${PIN_WARMUP:-15s}
THREADS=${THREADS:-2}
CONNS=${CONNS:-64}
PIN_SAMPLE=${PIN_SAMPLE:-100000}
SAMPLE_SEED=${SAMPLE_SEED:-42}
SEED_DIR=${SEED_DIR:-.stack/seed}
RESULTS=${RESULTS:-bench/data/results}
BASE=http://127.0.0.1:${PINION_CLUSTER_PORT:-8080}
export STACK_DIR=${STACK_DIR:-.stack}

[[ -s $SEED_DIR/manifest.json ]] || { echo "no $SEED_DIR/manifest.json: run bin/seed --users 100000 first" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

out="$RESULTS/$(date -u +%Y%m%dT%H%M%SZ)-cluster-scaling"
mkdir -p "$out"
# shellcheck source=lib/pins.sh
source "$HERE/lib/pins.sh"
# shellcheck source=../bin/lib/jvm-flags.sh
source "$HERE/../bin/lib/jvm-flags.sh"
# shellcheck source=lib/cpu.sh
source "$HERE/lib/cpu.sh"
# shellcheck source=lib/cluster.sh
source "$HERE/lib/cluster.sh"
sample_pins "$PIN_SAMPLE" "$SAMPLE_SEED" "$out/pins.txt"
# shellcheck source=lib/checks.sh
source "$HERE/lib/checks.sh"
sample_checks "$SEED_DIR" "$out/checks.txt"

wrk_rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
wrk_reqs() { awk '/ requests in / && $1 ~ /^[0-9]+$/ {print $1; exit}' "$1"; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%g\n", (a[NR/2]+a[NR/2+1])/2}'; }
ticks() { local total=0 pid t; for pid in "$@"; do t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) && total=$((total + t)); done; echo "$total"; }

summary="$out/summary.txt"
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, JVM flags ${PINION_JVM_FLAGS:-$PINION_DEFAULT_JVM_FLAGS}" | tee "$summary"
for n in $INSTANCES; do
  cluster_up "$n" "$out/cluster-up-$n.log"
  lb_pid=$(cat "$CLUSTER_DIR/haproxy.pid")
  # each instance's own object cache warmed directly (through the balancer each would see 1/n of the walk), as the
  # caches of a cluster that has been serving are
  for (( i = 1; i <= n; i++ )); do
    wrk -t2 -c"$CONNS" -d"$PIN_WARMUP" -s bench/wrk/walk-pins.lua "http://127.0.0.1:$(( ${PINION_CLUSTER_PORT:-8080} + i ))" \
      -- "$out/pins.txt" >/dev/null
  done
  wrk -t"$THREADS" -c"$CONNS" -d5s -s bench/wrk/follow-check.lua "$BASE" -- "$out/checks.txt" >/dev/null
  for name in get-pin follow-check; do
    input=$out/pins.txt
    [[ $name == follow-check ]] && input=$out/checks.txt
    rates=() requests=0
    cpu_start
    lb0=$(ticks "$lb_pid")
    for (( round = 1; round <= ROUNDS; round++ )); do
      file="$out/$name-$n-$round.txt"
      wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "bench/wrk/$name.lua" "$BASE" -- "$input" >"$file"
      rates+=("$(wrk_rps "$file")")
      requests=$(( requests + $(wrk_reqs "$file") ))
    done
    lb_us=$(awk -v t="$(( $(ticks "$lb_pid") - lb0 ))" -v hz="$(getconf CLK_TCK)" -v r="$requests" 'BEGIN { printf "%.0f", t / hz * 1e6 / r }')
    printf '%d instance(s) %-13s median %8.0f req/s  (rounds: %s)  haproxy %s us/request\n' "$n" "$name" \
      "$(printf '%s\n' "${rates[@]}" | median)" "${rates[*]}" "$lb_us" | tee -a "$summary"
    cpu_report "$requests" | tee -a "$summary"
  done
done
bin/cluster down >/dev/null 2>&1 || true
echo "raw output: $out" | tee -a "$summary"
