#!/usr/bin/env bash
# bench/run-feed.sh — home-feed benchmark of a running Pinion (see bench/app.sh) over a data set written by
# bench/BulkLoad.java (users, boards, pins, follows and tokens in $BULK), with bench/FeedBench.java, wrk and
# bench/HBaseRaw.java. The account $BENCH_USER is made admin and worker with bin/admin (bench/admin-account.sh).
#
#   bench/run-feed.sh [scenario ...]     scenarios, in the order given (default: all, in this order):
#     follow      the first $READERS users of $BULK/tokens.txt (the readers) each follow $AUTHORS_PER_READER of 200
#                 authors with >= 50 pins; the follow events backfill their recent pins into the readers' pools.
#                 Waits for the feed queues to drain and reports pool inserts/s of the backfills.
#     fanout      pauses queue feed-fanout (rateLimit 0), creates $FANOUT_PINS pins by random token users (not
#                 readers), resumes it and measures the drain: pool inserts/s (pinion_feed_pool_inserts_total) from
#                 the moment the inserts start until feed-fanout and feed-pool-insert are empty, and the best 10-s
#                 window.
#     fanout-celebrity  the same with $CELEBRITY_PINS pins by the celebrities of $BULK/celebrities.txt (logged in
#                 with the bulk password), each followed by every user: ~100,000 receivers per pin, full batches.
#     first-page  wrk: GET /v1/me/home-feed?limit=$LIMIT as random users of $BULK/tokens.txt (generator + materialized
#                 feed in parallel); each run also reports fresh=<answers with a new chunk>/<answers>
#     cursors     each reader visits the first page $VISITS times; the last nextCursor -> $OUT/cursors.txt
#     next-page   wrk: GET /v1/me/home-feed?limit=$LIMIT&cursor=.. over $OUT/cursors.txt (materialized feed only)
#     hbase-raw   java -cp "$APP_DIR/target/quarkus-app/lib/main/*" bench/HBaseRaw.java on the pools cluster
#                 ($HBASE_BOOTSTRAP): batch puts of $BATCH rows and prefix scans with limit $LIMIT; then the ratios
#                 fan-out inserts/s (fanout-celebrity, else fanout) / raw put rows/s and first-page req/s / raw scans/s
#     availability  first and next pages (wrk, $AVAIL_DURATION each) in three states of the materialized primary
#                 ($PRIMARY): healthy, paused for the run (bin/drill pause), killed for the run and restarted after
#                 it (bin/drill kill); per run p50/p99/p99.9, the success rate and the hedged reader's outcomes
#     lag         the standby's replication lag: $LAG_PROBES marker probes (POST /v1/admin/feed/standby-lag/probes)
#                 while a first-page wrk run writes chunks; p50/p99/max
# wrk scenarios: one warm-up run (WARMUP), then RUNS runs of
#   wrk -t$THREADS -c$CONNS -d$DURATION --latency -s bench/wrk/home-feed.lua $BASE -- <file> $LIMIT
# with the medians of req/s, p50, p90, p99 and the error rate, as run-graph.sh. Raw output goes to
# $RESULTS/<stamp>-<label>-feed-<scenario>[-<n>].txt; one row per scenario is appended to $RESULTS/feed-summary.tsv.
#
# BASE (http://127.0.0.1:18090)  RUNS (3)  DURATION (30s)  WARMUP (10s, 0 to skip)  THREADS (2)  CONNS (64)
# BULK (bench/data/bulk)  OUT ($DATA/feed)  DATA (bench/data)  RESULTS ($DATA/results)  LABEL (default)
# READERS (2000)  AUTHORS_PER_READER (2)  FANOUT_PINS (20000)  CELEBRITY_PINS (6)  BULK_PASSWORD  VISITS (2)  LIMIT (25)  CONCURRENCY (32)
# AVAIL_DURATION (60s)  PRIMARY (hbase-primary)  LAG_PROBES (200)
# APP_DIR (/tmp/pinion-bench)  HBASE_BOOTSTRAP (127.0.0.1:16100)  BATCH (1000)  HBASE_SECONDS (20)
# BENCH_USER (bench_admin)  BENCH_PASSWORD (bench-admin-password)  JAVA (java)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
BASE=${BASE:-http://127.0.0.1:18090}
source "$(dirname "${BASH_SOURCE[0]}")/lib/metrics.sh"
METRICS=$(metrics_base "$BASE")
RUNS=${RUNS:-3}
DURATION=${DURATION:-30s}
WARMUP=${WARMUP:-10s}
THREADS=${THREADS:-2}
CONNS=${CONNS:-64}
DATA=${DATA:-bench/data}
BULK=${BULK:-$DATA/bulk}
OUT=${OUT:-$DATA/feed}
RESULTS=${RESULTS:-$DATA/results}
LABEL=${LABEL:-default}
READERS=${READERS:-2000}
AUTHORS_PER_READER=${AUTHORS_PER_READER:-2}
FANOUT_PINS=${FANOUT_PINS:-20000}
CELEBRITY_PINS=${CELEBRITY_PINS:-6}
BULK_PASSWORD=${BULK_PASSWORD:-bench-bulk-password-1}
AVAIL_DURATION=${AVAIL_DURATION:-60s}
PRIMARY=${PRIMARY:-hbase-primary}
LAG_PROBES=${LAG_PROBES:-200}
VISITS=${VISITS:-2}
LIMIT=${LIMIT:-25}
CONCURRENCY=${CONCURRENCY:-32}
APP_DIR=${APP_DIR:-/tmp/pinion-bench}
HBASE_BOOTSTRAP=${HBASE_BOOTSTRAP:-127.0.0.1:16100}
BATCH=${BATCH:-1000}
HBASE_SECONDS=${HBASE_SECONDS:-20}
BENCH_USER=${BENCH_USER:-bench_admin}
BENCH_PASSWORD=${BENCH_PASSWORD:-bench-admin-password}
JAVA=${JAVA:-java}
all=(follow fanout fanout-celebrity first-page cursors next-page hbase-raw availability lag)
scenarios=("$@")
(( ${#scenarios[@]} )) || scenarios=("${all[@]}")
for s in "${scenarios[@]}"; do
  [[ " ${all[*]} " == *" $s "* ]] || { echo "unknown scenario $s (known: ${all[*]})" >&2; exit 2; }
done
mkdir -p "$RESULTS" "$OUT"
curl -fsS -o /dev/null "$BASE/q/health/ready" || { echo "no ready Pinion at $BASE" >&2; exit 1; }
[[ -s $BULK/tokens.txt ]] || { echo "missing $BULK/tokens.txt (run bench/BulkLoad.java first)" >&2; exit 1; }

median() { grep -E '^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$' | sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "na"; else if (NR % 2) print a[(NR+1)/2]; else printf "%g\n", (a[NR/2]+a[NR/2+1])/2}' || true; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
inserts() { curl -fsS "$METRICS/q/metrics" | awk '/^pinion_feed_pool_inserts_total/ {printf "%.0f\n", $2}'; }
now_ms() { date +%s%3N; }

# the admin/worker user (a 409: it exists already) and its token, for queue settings and stats
bash bench/admin-account.sh "$BENCH_USER" "$BENCH_PASSWORD" "$BASE"
admin=$(curl -fsS -XPOST "$BASE/v1/sessions" -H 'Content-Type: application/json' \
  -d "{\"username\":\"$BENCH_USER\",\"password\":\"$BENCH_PASSWORD\"}" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
[[ -n $admin ]] || { echo "login of $BENCH_USER failed" >&2; exit 1; }
queue_patch() { curl -fsS -o /dev/null -XPATCH "$BASE/v1/queues/$1" -H "Authorization: Bearer $admin" \
  -H 'Content-Type: application/json' -d "$2"; }
# jobs pending or running in a queue
backlog() { curl -fsS "$BASE/v1/queues/$1/stats" -H "Authorization: Bearer $admin" \
  | grep -o '"\(PENDING\|RUNNING\)":[0-9]*' | cut -d: -f2 | awk '{s += $1} END {print s + 0}'; }

# Samples the insert counter every second until the queues given are empty and the counter has stood still for 3
# samples; prints "inserts seconds rate best10s". The drain is timed from the last sample before the counter first
# moved (a resumed queue is picked up by the dispatcher after a delay) to the first sample showing the final count.
drain() {
  local c0 c prev_c=-1 quiet=0 best=0 samples=() times=()
  c0=$(inserts)
  samples+=("$c0"); times+=("$(now_ms)")
  while :; do
    sleep 1
    c=$(inserts)
    samples+=("$c"); times+=("$(now_ms)")
    if (( c == prev_c )); then
      local pending=0 q
      for q in "$@"; do pending=$((pending + $(backlog "$q"))); done
      if (( pending == 0 )); then quiet=$((quiet + 1)); else quiet=0; fi
    else
      quiet=0
    fi
    prev_c=$c
    (( quiet >= 3 )) && break
  done
  local n=${#samples[@]} start_i=0 end_i=0 i j
  for ((i = 0; i < n; i++)); do (( samples[i] == c0 )) && start_i=$i || break; done
  for ((i = 0; i < n; i++)); do (( samples[i] == samples[n - 1] )) && { end_i=$i; break; }; done
  for ((i = start_i; i < n; i++)); do
    for ((j = i + 1; j < n; j++)); do
      if (( times[j] - times[i] >= 10000 )); then
        local r=$(( (samples[j] - samples[i]) * 1000 / (times[j] - times[i]) ))
        (( r > best )) && best=$r
        break
      fi
    done
  done
  local total=$((samples[n - 1] - c0)) ms=$((times[end_i] - times[start_i]))
  awk -v t="$total" -v ms="$ms" -v b="$best" 'BEGIN {printf "%d %.1f %.0f %d\n", t, ms / 1000, (ms > 0 ? t * 1000 / ms : 0), b}'
}

tsv=$RESULTS/feed-summary.tsv
[[ -f $tsv ]] || printf 'when\tlabel\tscenario\truns\tduration\tconns\treq_s\tp50_ms\tp90_ms\tp99_ms\terror_rate\tvalue\tunit\tdetail\n' >"$tsv"
row() { printf '%s\t%s' "$stamp" "$LABEL" >>"$tsv"; printf '\t%s' "$@" >>"$tsv"; printf '\n' >>"$tsv"; }
last() { awk -F'\t' -v l="$LABEL" -v s="$1" -v c="$2" '$2 == l && $3 == s {r = $c} END {print r}' "$tsv"; }
stamp=$(date -u +%Y%m%dT%H%M%SZ)
failed=0

wrk_scenario() { # name file
  local s=$1 file=$2 results=() n out line
  [[ -s $file ]] || { echo "missing $file" >&2; failed=$((failed + 1)); return; }
  if [[ $WARMUP != 0 ]]; then
    echo "== $s: warm-up $WARMUP"
    wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" --latency -s bench/wrk/home-feed.lua "$BASE" -- "$file" "$LIMIT" | grep '^RESULT' || true
  fi
  for n in $(seq 1 "$RUNS"); do
    out=$RESULTS/$stamp-$LABEL-feed-$s-$n.txt
    local load0; load0=$(cut -d' ' -f1 /proc/loadavg)
    wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s bench/wrk/home-feed.lua "$BASE" -- "$file" "$LIMIT" >"$out" || true
    if ! grep -q '^RESULT' "$out"; then echo "   run $n: FAILED (see $out)" >&2; failed=$((failed + 1)); continue; fi
    line="$(grep '^RESULT' "$out") fresh=$(sed -n 's/^FRESH pages_with_new_pins=\([0-9]*\) of \([0-9]*\)/\1\/\2/p' "$out") load=$load0/$(cut -d' ' -f1 /proc/loadavg)"
    echo "$line" >>"$out"; echo "   run $n: ${line#RESULT }"; results+=("$line")
  done
  (( ${#results[@]} )) || return
  local rps p50 p90 p99 err runs_all
  rps=$(printf '%s\n' "${results[@]}" | field rps | median)
  p50=$(printf '%s\n' "${results[@]}" | field p50_ms | median)
  p90=$(printf '%s\n' "${results[@]}" | field p90_ms | median)
  p99=$(printf '%s\n' "${results[@]}" | field p99_ms | median)
  err=$(printf '%s\n' "${results[@]}" | awk '{for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      printf "%.6f\n", (v["requests"] > 0 ? (v["non2xx"] + v["socket_errors"]) / v["requests"] : 0) }' | median)
  runs_all=$(printf '%s\n' "${results[@]}" | field rps | paste -sd/)
  printf 'SUMMARY %-10s label=%s median of %d x %s c=%d limit=%s: %s req/s  p50 %s ms  p90 %s ms  p99 %s ms  errors %s  (runs: %s)\n' \
    "$s" "$LABEL" "${#results[@]}" "$DURATION" "$CONNS" "$LIMIT" "$rps" "$p50" "$p90" "$p99" "$err" "$runs_all"
  row "$s" "${#results[@]}" "$DURATION" "$CONNS" "$rps" "$p50" "$p90" "$p99" "$err" "$rps" req/s "runs=$runs_all limit=$LIMIT"
}

# the hedged reader's outcome counters of the materialized feed, "outcome=count ..."
hedge_counts() { curl -fsS "$METRICS/q/metrics" | sed -n 's/^pinion_hedge_reads_total{.*name="materialized_feed".*outcome="\([a-z_]*\)".*} \([0-9.E]*\)$/\1 \2/p' \
  | awk '{printf "%s=%.0f ", $1, $2}'; }
# per outcome, the difference of two hedge_counts lines
hedge_delta() { awk -v a="$1" -v b="$2" 'BEGIN {
  n = split(a, x, " "); for (i = 1; i <= n; i++) { split(x[i], kv, "="); before[kv[1]] = kv[2] }
  n = split(b, y, " "); for (i = 1; i <= n; i++) { split(y[i], kv, "="); printf "%s=%d ", kv[1], kv[2] - before[kv[1]] } }'; }

availability_run() { # state page
  local state=$1 page=$2 file out before after line
  if [[ $page == first ]]; then file=$BULK/tokens.txt; else file=$OUT/cursors.txt; fi
  out=$RESULTS/$stamp-$LABEL-feed-avail-$state-$page.txt
  local cmd=(wrk -t"$THREADS" -c"$CONNS" -d"$AVAIL_DURATION" --latency -s bench/wrk/home-feed.lua "$BASE" -- "$file" "$LIMIT")
  before=$(hedge_counts)
  case $state in
    healthy) "${cmd[@]}" >"$out" || true ;;
    paused) bin/drill pause "$PRIMARY" -- "${cmd[@]}" >"$out" 2>>"$out.drill" || true ;;
    killed) bin/drill kill "$PRIMARY" -- "${cmd[@]}" >"$out" 2>>"$out.drill" || true ;;
  esac
  after=$(hedge_counts)
  if ! grep -q '^RESULT' "$out"; then echo "   $state $page: FAILED (see $out)" >&2; failed=$((failed + 1)); return; fi
  line="$(grep '^RESULT' "$out" | sed 's/^RESULT name=home-feed //') hedge: $(hedge_delta "$before" "$after")"
  echo "SUMMARY avail-$state-$page label=$LABEL $line"
  row "avail-$state-$page" 1 "$AVAIL_DURATION" "$CONNS" "$(field rps <<<" $line")" "$(field p50_ms <<<" $line")" \
    "$(field p90_ms <<<" $line")" "$(field p99_ms <<<" $line")" - "$(field p999_ms <<<" $line")" p999_ms "$line"
}

fanout_scenario() { # name tokens-file skip pins
  local s=$1 out=$RESULTS/$stamp-$LABEL-feed-$1.txt queued total secs rate best line
  queue_patch feed-fanout '{"rateLimit":0}'
  trap 'queue_patch feed-fanout "{\"unlimited\":true}" || true' EXIT
  "$JAVA" bench/FeedBench.java pins --base "$BASE" --tokens "$2" --skip "$3" --count "$4" \
    --concurrency "$CONCURRENCY" 2>&1 | tee "$out" || failed=$((failed + 1))
  sleep 3 # let pins in flight enqueue their fan-out
  queued=$(backlog feed-fanout)
  queue_patch feed-fanout '{"unlimited":true}'
  trap - EXIT
  read -r total secs rate best < <(drain feed-fanout feed-pool-insert)
  line="pins=$4 fanout_jobs=$queued inserts=$total seconds=$secs inserts_per_s=$rate best_10s=$best"
  echo "$line" >>"$out"
  echo "SUMMARY $s label=$LABEL $line"
  row "$s" 1 - - - - - - - "$rate" inserts/s "$line"
}

for s in "${scenarios[@]}"; do
  case "$s" in
    follow)
      out=$RESULTS/$stamp-$LABEL-feed-follow.txt
      c0=$(inserts)
      "$JAVA" bench/FeedBench.java follow --base "$BASE" --tokens "$BULK/tokens.txt" --users "$BULK/users.txt" \
        --readers "$READERS" --authors-per-reader "$AUTHORS_PER_READER" --concurrency "$CONCURRENCY" --out "$OUT" \
        2>&1 | tee "$out" || failed=$((failed + 1))
      read -r total secs rate best < <(drain feed-follow-events)
      total=$(( $(inserts) - c0 ))
      echo "SUMMARY follow     label=$LABEL $(grep '^RESULT' "$out" | sed 's/^RESULT name=follow //'); backfill pool inserts $total"
      row follow 1 - "$CONCURRENCY" - - - - - "$total" inserts "$(grep '^RESULT' "$out" | sed 's/^RESULT name=follow //')" ;;

    fanout) fanout_scenario fanout "$BULK/tokens.txt" "$READERS" "$FANOUT_PINS" ;;

    fanout-celebrity)
      prefix=$(sed -n 's/^prefix *\([a-z0-9_]*\) .*/\1/p' "$BULK/summary.txt")
      [[ -n $prefix ]] || { echo "no prefix in $BULK/summary.txt" >&2; failed=$((failed + 1)); continue; }
      : >"$OUT/celebrity-tokens.txt"
      for c in $(seq 0 $(( $(wc -l <"$BULK/celebrities.txt") - 1 ))); do
        printf '%s\n' "$(curl -fsS -XPOST "$BASE/v1/sessions" -H 'Content-Type: application/json' \
          -d "{\"username\":\"${prefix}_$c\",\"password\":\"$BULK_PASSWORD\"}" \
          | sed -n 's/.*"token":"\([^"]*\)".*"userId":"\([0-9]*\)".*/\1 \2/p')" >>"$OUT/celebrity-tokens.txt"
      done
      fanout_scenario fanout-celebrity "$OUT/celebrity-tokens.txt" 0 "$CELEBRITY_PINS" ;;

    first-page) wrk_scenario first-page "$BULK/tokens.txt" ;;

    cursors)
      out=$RESULTS/$stamp-$LABEL-feed-cursors.txt
      "$JAVA" bench/FeedBench.java cursors --base "$BASE" --tokens "$OUT/readers.txt" --visits "$VISITS" \
        --limit "$LIMIT" --concurrency "$CONCURRENCY" --out "$OUT/cursors.txt" 2>&1 | tee "$out" || failed=$((failed + 1))
      drain feed-persist >/dev/null
      echo "SUMMARY cursors    label=$LABEL $(grep '^RESULT' "$out" | sed 's/^RESULT name=cursors //')" ;;

    next-page) wrk_scenario next-page "$OUT/cursors.txt" ;;

    hbase-raw)
      out=$RESULTS/$stamp-$LABEL-feed-hbase-raw.txt
      "$JAVA" -cp "$APP_DIR/target/quarkus-app/lib/main/*" bench/HBaseRaw.java --bootstrap "$HBASE_BOOTSTRAP" \
        --batch "$BATCH" --limit "$LIMIT" --seconds "$HBASE_SECONDS" --runs "$RUNS" 2>&1 | grep -v '^[0-9-]* [0-9:,]* \(INFO\|WARN\)' | tee "$out"
      put=$(grep '^RESULT name=hbase-put' "$out" | field rate)
      scan=$(grep '^RESULT name=hbase-scan' "$out" | field rate)
      [[ -n $put && -n $scan ]] || { echo "hbase-raw: no RESULT (see $out)" >&2; failed=$((failed + 1)); continue; }
      # the median of this invocation's celebrity fan-outs, else the last fan-out row of this label
      fan=$(awk -F'\t' -v l="$LABEL" -v st="$stamp" '$1 == st && $2 == l && $3 == "fanout-celebrity" {print $12}' "$tsv" | median)
      [[ $fan != na ]] || fan=$(last fanout-celebrity 12)
      [[ -n $fan ]] || fan=$(last fanout 12)
      first=$(last first-page 7)
      r1=$(awk -v a="$fan" -v b="$put" 'BEGIN {print (a != "" && b > 0 ? sprintf("%.3f", a / b) : "na")}')
      r2=$(awk -v a="$first" -v b="$scan" 'BEGIN {print (a != "" && b > 0 ? sprintf("%.3f", a / b) : "na")}')
      echo "SUMMARY hbase-raw  label=$LABEL put $put rows/s, scan $scan scans/s; fan-out ${fan:-na} inserts/s / put = $r1;" \
        "first page ${first:-na} req/s / scan = $r2"
      row hbase-raw "$RUNS" "${HBASE_SECONDS}s" - - - - - - "$r1" fanout/put "put_rows_s=$put scan_s=$scan first_page_over_scan=$r2" ;;
    availability)
      [[ -s $OUT/cursors.txt ]] || { echo "missing $OUT/cursors.txt (run the cursors scenario first)" >&2; exit 1; }
      for state in healthy paused killed; do
        for page in first next; do availability_run "$state" "$page"; done
      done ;;

    lag)
      out=$RESULTS/$stamp-$LABEL-feed-lag.txt
      wrk -t"$THREADS" -c"$CONNS" -d"$AVAIL_DURATION" --latency -s bench/wrk/home-feed.lua "$BASE" -- "$BULK/tokens.txt" "$LIMIT" \
        >"$out.wrk" 2>&1 &
      wrk_pid=$!
      sleep 2
      curl -fsS -XPOST "$BASE/v1/admin/feed/standby-lag/probes?count=$LAG_PROBES" -H "Authorization: Bearer $admin" >"$out" \
        || { echo "lag probes failed" >&2; failed=$((failed + 1)); }
      wait "$wrk_pid" || true
      echo "SUMMARY lag        label=$LABEL $LAG_PROBES probes under a first-page load ($(grep '^RESULT' "$out.wrk" | field rps) req/s): $(cat "$out")"
      row lag 1 - - - "$(sed -n 's/.*"p50Ms":\([0-9]*\).*/\1/p' "$out")" - "$(sed -n 's/.*"p99Ms":\([0-9]*\).*/\1/p' "$out")" - \
        "$(sed -n 's/.*"maxMs":\([0-9]*\).*/\1/p' "$out")" max_ms "$(cat "$out")" ;;
  esac
done
(( failed == 0 )) || { echo "$failed step(s) failed" >&2; exit 1; }
