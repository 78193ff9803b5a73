#!/usr/bin/env bash
# bench/ab-jars.sh — the same benchmarks against two builds of Pinion, alternately, on the same stack and data, so
# that a change can be judged against the noise of this shared machine (A, B, A, B, ...).
#
#   A=/tmp/pinion-a B=/tmp/pinion-b bench/ab-jars.sh
#
# A, B        built clones (target/quarkus-app/quarkus-run.jar), e.g. `git worktree add /tmp/pinion-a <rev>` and
#             `./mvnw -B -q package -DskipTests` in each
# ROUNDS (3)  rounds; each round starts A, runs the scenarios, stops it, then the same for B
# SCENARIOS   any of enqueue-single enqueue-batch dequeue-ack get-pin board-pins write-pins (default: the first
#             five; get-pin and board-pins read bench/data/{pins,boards}.txt written by bench/LoadData.java;
#             write-pins runs k6/write-pins.js at WRITE_RATE (200)/s against a seeded stack's manifest, whose tokens
#             the service must verify: KEY_DIR holding the stack's .stack/jwt key pair as priv.pem and pub.pem)
# A_OPTS, B_OPTS  extra -D options for each build's start, e.g. the same build with a feature off and on:
#             A=/tmp/x B=/tmp/x A_OPTS=-Dpinion.feed.funnel.per-entity=false bench/ab-jars.sh
# DURATION (20s) per wrk run; JOBS (100000) per dequeue-ack run; RESULTS (bench/data/results)
#
# Prints each run's SUMMARY line tagged with its build, then per scenario the median over the rounds of each build
# and the ratio B / A of the medians.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
: "${A:?A=<built clone>}" "${B:?B=<built clone>}"
ROUNDS=${ROUNDS:-3}
SCENARIOS=${SCENARIOS:-enqueue-single enqueue-batch dequeue-ack get-pin board-pins}
DURATION=${DURATION:-20s}
JOBS=${JOBS:-100000}
RESULTS=${RESULTS:-bench/data/results}
mkdir -p "$RESULTS"
log="$RESULTS/ab-$(date -u +%Y%m%dT%H%M%SZ).txt"

run_scenarios() { # $1 = build label
  local s
  for s in $SCENARIOS; do
    case $s in
      enqueue-single|enqueue-batch)
        SCENARIOS=${s#enqueue-} RUNS=1 DURATION=$DURATION bash bench/run-queue-enqueue.sh | grep '^SUMMARY' ;;
      dequeue-ack)
        LABEL=$1 RUNS=1 JOBS=$JOBS bash bench/run-queue.sh dequeue-ack | grep '^SUMMARY' ;;
      get-pin|board-pins)
        LABEL=$1 RUNS=1 WARMUP=10s DURATION=$DURATION bash bench/run-api.sh "$s" | grep '^SUMMARY' ;;
      write-pins)
        LABEL=$1 RATE=${WRITE_RATE:-200} DURATION=$DURATION BASE_URL=http://127.0.0.1:${PORT:-18090} \
          bash bench/lib/write-pins-summary.sh | grep '^SUMMARY' ;;
      *) echo "unknown scenario $s" >&2; exit 2 ;;
    esac | sed "s/^/$1 /" || echo "$1 FAILED $s (its run printed no summary; the medians leave it out)"
  done
}

running=
trap '[[ -n $running ]] && APP_DIR=$running bash bench/app.sh stop >/dev/null' EXIT
for round in $(seq 1 "$ROUNDS"); do
  for build in A B; do
    dir=${!build}
    opts=${build}_OPTS
    # shellcheck disable=SC2086 # the options are words
    APP_DIR=$dir bash bench/app.sh start ${!opts:-} >/dev/null
    running=$dir
    sleep 5
    APP_DIR=$dir APP_PID=$(cat "$dir/bench-app.pid") run_scenarios "$build" | tee -a "$log"
    APP_DIR=$dir bash bench/app.sh stop >/dev/null
    running=
  done
done

echo
echo "medians over $ROUNDS rounds (log: $log)"
for s in $SCENARIOS; do
  for build in A B; do
    # the throughput figure of each SUMMARY line: "jobs_per_s=N", "N jobs/s", "N req/s" or "N rows/s"
    grep "^$build SUMMARY $s\b\|^$build SUMMARY ${s#enqueue-}\b\|^$build SUMMARY enqueue-${s#enqueue-}\b" "$log" \
      | grep -oE 'jobs_per_s=[0-9.]+|[0-9.]+ (jobs|req|rows)/s' | head -n "$ROUNDS" | grep -oE '[0-9.]+' | head -n "$ROUNDS" \
      | sort -g | awk -v s="$s" -v b="$build" '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2;
          printf "%s %-14s median %s (of", b, s, m; for (i = 1; i <= NR; i++) printf " %s", a[i]; print ")"}'
  done
done | tee -a "$log" | awk '{print} $1 == "A" {a[$2] = $4} $1 == "B" && a[$2] > 0 {printf "  B / A = %.2f\n", $4 / a[$2]}'
for s in $SCENARIOS; do
  for build in A B; do
    # the first p99 of each SUMMARY line ("p99 N ms"), where the scenario prints one
    grep "^$build SUMMARY $s\b\|^$build SUMMARY ${s#enqueue-}\b\|^$build SUMMARY enqueue-${s#enqueue-}\b" "$log" \
      | grep -oE 'p99 [0-9.]+ ms' | head -n "$ROUNDS" | sed -E 's/^p99 ([0-9.]+) ms$/\1/' \
      | sort -g | awk -v s="$s-p99" -v b="$build" 'NR {a[NR]=$1} END {if (!NR) exit;
          m = NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2;
          printf "%s %-14s median %s ms (of", b, s, m; for (i = 1; i <= NR; i++) printf " %s", a[i]; print ")"}'
  done
done | tee -a "$log" | awk '{print} $1 == "A" {a[$2] = $4} $1 == "B" && a[$2] > 0 {printf "  B / A = %.2f\n", $4 / a[$2]}'
