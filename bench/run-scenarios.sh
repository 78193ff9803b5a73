#!/usr/bin/env bash
# bench/run-scenarios.sh — the k6 scenarios' request shapes (k6/wrk/*.lua) with wrk against a seeded service, and the
# raw backends they stand on, in one session so that ratios compare like with like.
#
#   bench/run-scenarios.sh [SCENARIO...]     default: read-feed follow write-pins jobs mixed raw
#
#   read-feed, follow, write-pins, jobs, mixed   RUNS × DURATION of k6/wrk/<scenario>.lua; prints every run's RESULT
#                                                line and a SUMMARY with the medians (rps, p50, p99, p99.9, non-2xx)
#   raw      redis-benchmark ZSCORE and SET on redis-1, mysqlslap primary-key SELECT and INSERT on mysql-1, and
#            bench/HBaseRaw.java prefix scans on the primary HBase cluster: SUMMARY lines with the medians
#
# BASE (http://127.0.0.1:18090)  SEED_DIR (.stack/seed; from bin/seed)  RUNS (3)  DURATION (30s)
# FEED_CONNS (16: read-feed and mixed follow cursors per connection, so threads = connections)
# CONNS (64: follow)  WRITE_CONNS (16: write-pins, jobs)  APP_DIR (/tmp/pinion-bench: a built copy, for HBaseRaw's classpath)
# Results also go to $RESULTS (bench/data/results) as <stamp>-scenarios.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE:-http://127.0.0.1:18090}
export SEED_DIR=${SEED_DIR:-.stack/seed}
RUNS=${RUNS:-3}
DURATION=${DURATION:-30s}
FEED_CONNS=${FEED_CONNS:-16}
CONNS=${CONNS:-64}
WRITE_CONNS=${WRITE_CONNS:-16}
APP_DIR=${APP_DIR:-/tmp/pinion-bench}
RESULTS=${RESULTS:-bench/data/results}
mkdir -p "$RESULTS"
out=$RESULTS/$(date -u +%Y%m%dT%H%M%SZ)-scenarios.txt

[[ -s $SEED_DIR/manifest.json ]] || { echo "no $SEED_DIR/manifest.json: run bin/seed first" >&2; exit 1; }
(( $# )) || set -- read-feed follow write-pins jobs mixed raw

median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "na"; else print v[int((NR + 1) / 2)]}'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

scenario() {
  local name=$1 threads conns lines
  case $name in
    read-feed|mixed) threads=$FEED_CONNS; conns=$FEED_CONNS ;;
    follow) threads=2; conns=$CONNS ;;
    *) threads=2; conns=$WRITE_CONNS ;;
  esac
  [[ $name != jobs ]] || BASE_URL=$BASE bash k6/wrk/setup-queue.sh >/dev/null
  lines=$(for _ in $(seq "$RUNS"); do
    wrk -t"$threads" -c"$conns" -d"$DURATION" --latency -s "k6/wrk/$name.lua" "$BASE" | grep '^RESULT'
  done)
  echo "$lines" | tee -a "$out"
  echo "SUMMARY $name runs=$RUNS duration=$DURATION threads=$threads conns=$conns" \
    "rps=$(echo "$lines" | field rps | median) p50_ms=$(echo "$lines" | field p50_ms | median)" \
    "p99_ms=$(echo "$lines" | field p99_ms | median) p999_ms=$(echo "$lines" | field p999_ms | median)" \
    "non2xx=$(echo "$lines" | field non2xx | paste -sd+ | bc) errors=$(echo "$lines" | field errors | paste -sd+ | bc)" | tee -a "$out"
}

raw() {
  local rates
  redis-cli -p 63791 ZADD bench:raw:z 1 member >/dev/null
  for cmd in "ZSCORE bench:raw:z member" "SET bench:raw:k v"; do
    rates=$(for _ in $(seq "$RUNS"); do
      redis-benchmark -p 63791 -c 64 -n 300000 -q $cmd | tr '\r' '\n' |
        sed -n 's/.*: \([0-9.]*\) requests per second.*/\1/p' | tail -1
    done)
    echo "SUMMARY raw-redis ${cmd%% *} runs=$RUNS rps=$(echo "$rates" | median) (runs: $(echo $rates))" | tee -a "$out"
  done
  local my=(-h 127.0.0.1 -P 33061 -u pinion -ppinion)
  mariadb "${my[@]}" -e "CREATE DATABASE IF NOT EXISTS bench_raw; CREATE TABLE IF NOT EXISTS bench_raw.t
    (id BIGINT AUTO_INCREMENT PRIMARY KEY, data JSON NOT NULL) ENGINE=InnoDB; INSERT INTO bench_raw.t (data) VALUES ('{}');"
  for kind in select insert; do
    local query="SELECT data FROM bench_raw.t WHERE id = 1" conc=64
    [[ $kind == select ]] || { query="INSERT INTO bench_raw.t (data) VALUES ('{\"description\":\"raw\"}')"; conc=16; }
    rates=$(for _ in $(seq "$RUNS"); do
      mysqlslap "${my[@]}" --create-schema=bench_raw --no-drop --concurrency=$conc --iterations=1 \
        --number-of-queries=100000 --query="$query" 2>/dev/null |
        awk '/Average number of seconds/ && $(NF-1) > 0 {printf "%.0f\n", 100000 / $(NF-1)}'
    done)
    echo "SUMMARY raw-mysql $kind concurrency=$conc runs=$RUNS qps=$(echo "$rates" | median) (runs: $(echo $rates))" | tee -a "$out"
  done
  java -cp "$APP_DIR/target/quarkus-app/lib/main/*" bench/HBaseRaw.java --bootstrap 127.0.0.1:16100 --seconds 10 \
    --runs "$RUNS" 2>&1 | grep '^RESULT name=hbase' | tee -a "$out"
}

for name in "$@"; do
  case $name in
    read-feed|follow|write-pins|jobs|mixed) scenario "$name" ;;
    raw) raw ;;
    *) echo "unknown scenario $name" >&2; exit 2 ;;
  esac
done
echo "results: $out"
