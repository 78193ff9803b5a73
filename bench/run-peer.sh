#!/usr/bin/env bash
# bench/run-peer.sh — Pinion's read path side by side with what it is measured against, interleaved in one run:
#   get-pin       GET /v1/pins/{id} over PIN_SAMPLE random pins    vs  the TechEmpower FrameworkBenchmarks Quarkus
#                                                                     reactive PostgreSQL entry's GET /db (one row by
#                                                                     primary key, JSON), on PEER_BASE
#   follow-check  GET /v1/users/{a}/following/users/{b}, half       vs  redis-benchmark ZSCORE on a follower set of the
#                 edges (sample user -> heavy author), half mostly       same stack (a heavy author's, one member)
#                 not (sample user -> light author)
#   (floor)       the same GET pin                                 vs  the peer's GET /json (a constant object written as
#                                                                     JSON: the framework's floor, no database)
# Each round runs, in this order: the peer's /db, Pinion's get-pin, the peer's /json, ZSCORE, Pinion's follow-check. After ROUNDS
# rounds it prints the median of each and the ratios Pinion / peer.
#
#   bench/run-peer.sh
#
# The pins are drawn at random, evenly from every shard database of the local stack's MariaDB servers (their
# sockets under $STACK_DIR), with a fixed seed (SAMPLE_SEED): the same 100,000 pins every run, a working set ten
# times the peer's (its World table has 10,000 rows). The warm-up reads each of them once (PIN_WARMUP), as the
# peer's warm-up brings its table into PostgreSQL's buffers; a cold pass is measured apart (docs/benchmarks.md).
#
# Needs: a seeded stack (bin/seed --users 100000: $SEED_DIR holds users.tsv, heavy.txt, light.txt),
# Pinion serving it on BASE (bin/run), and the peer on PEER_BASE; with PEER=<its control script> (taking
# start|stop) the peer is started for the run and stopped after it if it was not already up.
#
# BASE (http://127.0.0.1:8080)  PEER_BASE (http://127.0.0.1:8090)  PEER (unset)  ROUNDS (3)  DURATION (15s)
# WARMUP (5s per target)  PIN_WARMUP (15s: a walk over the pin sample)  SAMPLE_SEED (42)  THREADS (2)  CONNS (64)  ZSCORE_REQUESTS (1000000)  SEED_DIR (.stack/seed)
# REDIS_HOST (127.0.0.1)  REDIS_PORTS ("63791 63792")  PIN_SAMPLE (100000)  STACK_DIR (.stack)
# RESULTS (bench/data/results)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
BASE=${BASE:-http://127.0.0.1:8080}
PEER_BASE=${PEER_BASE:-http://127.0.0.1:8090}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-5s}
PIN_WARMUP=${PIN_WARMUP:-15s}
SAMPLE_SEED=${SAMPLE_SEED:-42}
THREADS=${THREADS:-2}
CONNS=${CONNS:-64}
ZSCORE_REQUESTS=${ZSCORE_REQUESTS:-1000000}
SEED_DIR=${SEED_DIR:-.stack/seed}
REDIS_HOST=${REDIS_HOST:-127.0.0.1}
REDIS_PORTS=${REDIS_PORTS:-63791 63792}
PIN_SAMPLE=${PIN_SAMPLE:-100000}
STACK_DIR=${STACK_DIR:-.stack}
RESULTS=${RESULTS:-bench/data/results}
mkdir -p "$RESULTS"
for tool in wrk redis-benchmark redis-cli mysql; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (Debian: wrk, redis-tools)" >&2; exit 1; }
done
for f in users.tsv heavy.txt light.txt; do
  [[ -s $SEED_DIR/$f ]] || { echo "no $SEED_DIR/$f: run bin/seed --users 100000 first" >&2; exit 1; }
done
curl -fsS -o /dev/null "$BASE/q/health/ready" || { echo "no ready Pinion at $BASE (bin/run)" >&2; exit 1; }

started_peer=no
if ! curl -fsS -o /dev/null "$PEER_BASE/db" 2>/dev/null; then
  [[ -n ${PEER:-} ]] || { echo "no peer at $PEER_BASE/db; set PEER=<its control script> to start it" >&2; exit 1; }
  "$PEER" start >/dev/null
  started_peer=yes
fi
cleanup() { if [[ $started_peer == yes ]]; then "$PEER" stop >/dev/null 2>&1 || true; fi; }
trap cleanup EXIT

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out="$RESULTS/$stamp-peer"
mkdir -p "$out"

# the pins: PIN_SAMPLE random pins, the same number from each shard database
# shellcheck source=lib/pins.sh
source "$HERE/lib/pins.sh"
sample_pins "$PIN_SAMPLE" "$SAMPLE_SEED" "$out/pins.txt"

# the follow checks: each sample user against a random heavy author (an edge: heavy authors are followed by every
# other user) or a random light author (most often not followed)
# shellcheck source=lib/checks.sh
source "$HERE/lib/checks.sh"
sample_checks "$SEED_DIR" "$out/checks.txt"
mapfile -t heavy <"$SEED_DIR/heavy.txt"

# the ZSCORE: the first heavy author's follower set on whichever instance holds it, and one of its members
zkey="" zport=""
for port in $REDIS_PORTS; do
  found=$(redis-cli -h "$REDIS_HOST" -p "$port" --scan --pattern "g:{*}:u:${heavy[0]}:fre" | head -1)
  if [[ -n $found ]]; then zkey=$found zport=$port; break; fi
done
[[ -n $zkey ]] || { echo "no follower set of heavy author ${heavy[0]} in Redis" >&2; exit 1; }
zmember=$(redis-cli -h "$REDIS_HOST" -p "$zport" ZRANDMEMBER "$zkey")

wrk_rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
wrk_p99() { awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; print v}' "$1"; }
wrk_bad() { awk '/Non-2xx|Socket errors/ {print; exit}' "$1"; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%g\n", (a[NR/2]+a[NR/2+1])/2}'; }

run_wrk() { # name url [lua script, its input file]
  local name=$1 url=$2
  local file="$out/$name-$round.txt"
  if [[ $# -eq 4 ]]; then
    wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$3" "$url" -- "$4" >"$file"
  else
    wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency "$url" >"$file"
  fi
  [[ -z $(wrk_bad "$file") ]] || echo "  $name: $(wrk_bad "$file")" >&2
  printf '%s\t%s\t%s\n' "$name" "$(wrk_rps "$file")" "$(wrk_p99 "$file")" >>"$out/rounds.tsv"
  printf '  %-13s %10s req/s  p99 %s ms\n' "$name" "$(wrk_rps "$file")" "$(wrk_p99 "$file")"
}

echo "warm-up ($WARMUP each, $PIN_WARMUP for the pin sample)"
wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" "$PEER_BASE/db" >/dev/null
wrk -t2 -c"$CONNS" -d"$PIN_WARMUP" -s bench/wrk/walk-pins.lua "$BASE" -- "$out/pins.txt" >/dev/null
wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -s bench/wrk/follow-check.lua "$BASE" -- "$out/checks.txt" >/dev/null
: >"$out/rounds.tsv"
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round"
  run_wrk peer-db "$PEER_BASE/db"
  run_wrk get-pin "$BASE" bench/wrk/get-pin.lua "$out/pins.txt"
  run_wrk peer-json "$PEER_BASE/json"
  zs=$(redis-benchmark -h "$REDIS_HOST" -p "$zport" -c "$CONNS" -n "$ZSCORE_REQUESTS" -q ZSCORE "$zkey" "$zmember" \
    | tr '\r' '\n' | grep -oE '[0-9.]+ requests per second' | tail -1 | cut -d' ' -f1)
  printf 'zscore\t%s\t\n' "$zs" >>"$out/rounds.tsv"
  printf '  %-13s %10s req/s\n' zscore "$zs"
  run_wrk follow-check "$BASE" bench/wrk/follow-check.lua "$out/checks.txt"
done

med() { awk -F'\t' -v n="$1" '$1 == n {print $2}' "$out/rounds.tsv" | median; }
db=$(med peer-db) json=$(med peer-json) pin=$(med get-pin) zs=$(med zscore) check=$(med follow-check)
{
  echo "medians of $ROUNDS rounds, $DURATION each, wrk -t$THREADS -c$CONNS (raw output: $out)"
  printf '  get-pin       %10s req/s   peer /db %10s req/s   ratio %.2f\n' "$pin" "$db" "$(awk -v a="$pin" -v b="$db" 'BEGIN {print a / b}')"
  printf '  get-pin/json  %10s req/s   peer /json %8s req/s   ratio %.2f\n' "$pin" "$json" "$(awk -v a="$pin" -v b="$json" 'BEGIN {print a / b}')"
  printf '  follow-check  %10s req/s   ZSCORE   %10s req/s   ratio %.2f\n' "$check" "$zs" "$(awk -v a="$check" -v b="$zs" 'BEGIN {print a / b}')"
} | tee "$out/summary.txt"
