#!/usr/bin/env bash
# bench/run-graph.sh — follower-graph benchmark of a running Pinion (see bench/app.sh) with bench/GraphLoad.java, wrk
# and redis-benchmark. For the receivers scenario the app must be started with
# the account $BENCH_USER, made admin and worker with bin/admin (bench/admin-account.sh).
#
#   bench/run-graph.sh [scenario ...]     scenarios, run in the order given (default: all, in this order):
#     memory-before  used_memory (INFO memory) of every Redis instance in REDIS_PORTS -> $RESULTS/graph-memory-before.txt
#     load           java bench/GraphLoad.java --base $BASE --users $USERS --edges $EDGES --celebrities $CELEBRITIES
#                    --concurrency $CONCURRENCY --out $GRAPH [--prefix $PREFIX] [--seed $SEED]: sign-ups, logins, one
#                    board per celebrity, the follows, then a verify pass; writes users.txt, checks.txt, which.txt,
#                    celebrities.txt, zscore.txt, redis-keys.txt and summary.txt into $GRAPH
#     memory-after   bytes per edge, both directions counted (an edge is a member of the follower's :fu zset and of
#                    the followed user's :fre zset): (sum over instances of used_memory now - memory-before) / new
#                    edges of the load; plus the exact figure from MEMORY USAGE ... SAMPLES 0 summed over the :fu and
#                    :fre keys of the loaded users (redis-keys.txt), which other clients of the same Redis (a test
#                    suite) cannot skew
#     follow-check   wrk: GET /v1/users/{a}/following/users/{b} over checks.txt (half edges, half non-edges)
#     which-25       wrk: GET /v1/me/following/users?ids=<25 ids> as ~2,000 users (which.txt)
#     zscore         redis-benchmark -h $REDIS_HOST -p <port> -c $ZSCORE_CLIENTS -n $ZSCORE_REQUESTS -q ZSCORE <key>
#                    <member>, the first celebrity's follower zset and one of its followers (zscore.txt), RUNS runs;
#                    prints HTTP follow-check req/s / ZSCORE req/s (follow-check of this invocation, else the last
#                    follow-check row of graph-summary.tsv with this LABEL)
#     receivers      pages through GET /v1/boards/{id}/receivers?limit=$RECEIVERS_LIMIT of every celebrity's board
#                    (GraphLoad.java receivers, one connection, sequential pages; one warm-up pass unless WARMUP=0,
#                    then RUNS passes), checks uniqueness, order and the total against counts.followers; reports
#                    total ms, pages and receivers (medians over the passes)
# wrk scenarios: one warm-up run (WARMUP), then RUNS runs of
#   wrk -t$THREADS -c$CONNS -d$DURATION --latency -s bench/wrk/<script>.lua $BASE -- <file>
# with the medians of req/s, p50, p90, p99 and the error rate ((non-2xx + socket errors) / requests), as run-api.sh.
# Raw output goes to $RESULTS/<stamp>-<label>-graph-<scenario>[-<n>].txt; one row per scenario is appended to
# $RESULTS/graph-summary.tsv (value/unit: edges/s, bytes/edge, HTTP/ZSCORE ratio or receivers ms). Exits 1 if a
# step failed (load failures or verify mismatches, receivers problems, no wrk result).
#
# BASE (http://127.0.0.1:18090)  RUNS (3)  DURATION (30s)  WARMUP (10s, 0 to skip)  THREADS (2)  CONNS (64)
# USERS (120000)  EDGES (1000000)  CELEBRITIES (3)  CONCURRENCY (64)  PREFIX (fresh per run)  SEED (42)
# REDIS_HOST (127.0.0.1)  REDIS_PORTS ("63791 63792")  ZSCORE_CLIENTS (64)  ZSCORE_REQUESTS (500000)
# RECEIVERS_LIMIT (1000)  BENCH_USER (bench_admin)  BENCH_PASSWORD (bench-admin-password)
# DATA (bench/data)  GRAPH ($DATA/graph)  RESULTS ($DATA/results)  LABEL (free text tag, default "default")
# JAVA (java)  JAVA_OPTS (for the GraphLoad JVM, e.g. -Xmx2g)
#
# The app:  APP_DIR=/tmp/pinion-bench bench/app.sh start
# Notes: every follow also enqueues a job on queue feed-follow-events (the home feed's backfill of the new follow);
# start the app with -Dpinion.graph.feed-events=false to measure the graph alone.
# follow-check looks both users up (GraphTargets.requireUser) in the known-users set
# (pinion.graph.known-users-cache-size, 1,048,576 slots), so after the load's own requests it reads Redis only.
# The Redis instances may be shared with a test suite: prefer the MEMORY USAGE figure of memory-after over the
# used_memory delta then.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
BASE=${BASE:-http://127.0.0.1:18090}
RUNS=${RUNS:-3}
DURATION=${DURATION:-30s}
WARMUP=${WARMUP:-10s}
THREADS=${THREADS:-2}
CONNS=${CONNS:-64}
USERS=${USERS:-120000}
EDGES=${EDGES:-1000000}
CELEBRITIES=${CELEBRITIES:-3}
CONCURRENCY=${CONCURRENCY:-64}
PREFIX=${PREFIX:-}
SEED=${SEED:-42}
REDIS_HOST=${REDIS_HOST:-127.0.0.1}
read -r -a redis_ports <<<"${REDIS_PORTS:-63791 63792}"
ZSCORE_CLIENTS=${ZSCORE_CLIENTS:-64}
ZSCORE_REQUESTS=${ZSCORE_REQUESTS:-500000}
RECEIVERS_LIMIT=${RECEIVERS_LIMIT:-1000}
BENCH_USER=${BENCH_USER:-bench_admin}
BENCH_PASSWORD=${BENCH_PASSWORD:-bench-admin-password}
DATA=${DATA:-bench/data}
GRAPH=${GRAPH:-$DATA/graph}
RESULTS=${RESULTS:-$DATA/results}
LABEL=${LABEL:-default}
JAVA=${JAVA:-java}
read -r -a java_opts <<<"${JAVA_OPTS:-}"
all=(memory-before load memory-after follow-check which-25 zscore receivers)
scenarios=("$@")
(( ${#scenarios[@]} )) || scenarios=("${all[@]}")
for s in "${scenarios[@]}"; do
  [[ " ${all[*]} " == *" $s "* ]] || { echo "unknown scenario $s (known: ${all[*]})" >&2; exit 2; }
done
mkdir -p "$RESULTS" "$GRAPH"
curl -fsS -o /dev/null "$BASE/q/health/ready" || { echo "no ready Pinion at $BASE" >&2; exit 1; }

median() { grep -E '^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$' | sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "na"; else if (NR % 2) print a[(NR+1)/2]; else printf "%g\n", (a[NR/2]+a[NR/2+1])/2}' || true; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
need() { command -v "$1" >/dev/null || { echo "$1 is missing: $2" >&2; exit 1; }; }
used_memory() { redis-cli -h "$REDIS_HOST" -p "$1" INFO memory | tr -d '\r' | sed -n 's/^used_memory:\([0-9]*\)$/\1/p'; }
load_result() { [[ -s $GRAPH/summary.txt ]] && grep '^RESULT name=graph-load' "$GRAPH/summary.txt" | tail -1; }

tsv=$RESULTS/graph-summary.tsv
[[ -f $tsv ]] || printf 'when\tlabel\tscenario\truns\tduration\tconns\treq_s\tp50_ms\tp90_ms\tp99_ms\terror_rate\tvalue\tunit\tdetail\n' >"$tsv"
row() { # scenario runs duration conns req_s p50 p90 p99 err value unit detail
  printf '%s\t%s' "$stamp" "$LABEL" >>"$tsv"
  printf '\t%s' "$@" >>"$tsv"
  printf '\n' >>"$tsv"
}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
failed=0
http_rps=

for s in "${scenarios[@]}"; do
  case "$s" in
    memory-before)
      need redis-cli "apt-get install redis-tools"
      out=$RESULTS/graph-memory-before.txt
      : >"$out"
      total=0
      for port in "${redis_ports[@]}"; do
        m=$(used_memory "$port")
        [[ -n $m ]] || { echo "no INFO memory from $REDIS_HOST:$port" >&2; exit 1; }
        echo "$port $m $(redis-cli -h "$REDIS_HOST" -p "$port" DBSIZE)" >>"$out"
        total=$((total + m))
      done
      echo "$stamp" >>"$out"
      echo "SUMMARY memory-before used_memory $total bytes over ${redis_ports[*]} (port used_memory dbsize: $(head -n -1 "$out" | paste -sd' ')) -> $out" ;;

    load)
      out=$RESULTS/$stamp-$LABEL-graph-load.txt
      args=(--base "$BASE" --users "$USERS" --edges "$EDGES" --celebrities "$CELEBRITIES" --concurrency "$CONCURRENCY"
            --out "$GRAPH" --seed "$SEED")
      [[ -n $PREFIX ]] && args+=(--prefix "$PREFIX")
      echo "== load: $USERS users, $EDGES edges, $CELEBRITIES celebrities, concurrency $CONCURRENCY -> $GRAPH"
      set +e
      "$JAVA" "${java_opts[@]}" bench/GraphLoad.java "${args[@]}" 2>&1 | tee "$out"
      rc=${PIPESTATUS[0]}
      set -e
      result=$(load_result || true)
      if [[ -z $result ]]; then
        echo "SUMMARY load: FAILED (exit $rc, no RESULT line; see $out)" >&2
        failed=$((failed + 1))
        continue
      fi
      (( rc == 0 )) || { echo "load: exit $rc (failures or verify mismatches; see $out)" >&2; failed=$((failed + 1)); }
      eps=$(field edges_per_s <<<"$result")
      echo "SUMMARY load label=$LABEL ${result#RESULT name=graph-load }"
      row load 1 - "$CONCURRENCY" - - - - - "$eps" edges/s "${result#RESULT name=graph-load }" ;;

    memory-after)
      need redis-cli "apt-get install redis-tools"
      before=$RESULTS/graph-memory-before.txt
      [[ -s $before ]] || { echo "missing $before (run the memory-before scenario before load)" >&2; exit 1; }
      result=$(load_result || true)
      [[ -n $result ]] || { echo "missing RESULT in $GRAPH/summary.txt (run the load scenario)" >&2; exit 1; }
      edges=$(field edges_new <<<"$result")
      delta=0 detail=
      for port in "${redis_ports[@]}"; do
        b=$(awk -v p="$port" '$1 == p {print $2}' "$before")
        a=$(used_memory "$port")
        [[ -n $b && -n $a ]] || { echo "no used_memory for $port (before '$b', now '$a')" >&2; exit 1; }
        delta=$((delta + a - b))
        detail+="$port:$b->$a "
      done
      # exact: MEMORY USAGE of the loaded users' :fu and :fre keys, one redis-cli per instance reading commands
      keys_bytes=0
      if [[ -s $GRAPH/redis-keys.txt ]]; then
        for port in "${redis_ports[@]}"; do
          n=$(awk -v p="$port" '$1 == p {print "MEMORY USAGE " $2 " SAMPLES 0"}' "$GRAPH/redis-keys.txt" \
              | redis-cli -h "$REDIS_HOST" -p "$port" | awk '/^[0-9]+$/ {s += $1} END {printf "%.0f\n", s}')
          keys_bytes=$((keys_bytes + n))
        done
      fi
      per=$(awk -v d="$delta" -v e="$edges" 'BEGIN {print (e > 0 ? sprintf("%.1f", d / e) : "na")}')
      per_keys=$(awk -v d="$keys_bytes" -v e="$edges" 'BEGIN {print (e > 0 ? sprintf("%.1f", d / e) : "na")}')
      out=$RESULTS/$stamp-$LABEL-graph-memory.txt
      line="RESULT name=memory edges_new=$edges used_memory_delta=$delta bytes_per_edge=$per keys_bytes=$keys_bytes bytes_per_edge_keys=$per_keys used_memory=${detail% }"
      echo "$line" >"$out"
      echo "SUMMARY memory-after label=$LABEL: $per bytes/edge from used_memory (+$delta bytes over ${redis_ports[*]}, $edges new edges);" \
        "$per_keys bytes/edge from MEMORY USAGE of the loaded :fu/:fre keys ($keys_bytes bytes); both directions counted"
      row memory-after 1 - - - - - - - "$per" bytes/edge "${line#RESULT name=memory }" ;;

    follow-check|which-25)
      need wrk "apt-get install wrk"
      if [[ $s == follow-check ]]; then file=$GRAPH/checks.txt script=bench/wrk/follow-check.lua
      else file=$GRAPH/which.txt script=bench/wrk/which-users.lua; fi
      [[ -s $file ]] || { echo "missing $file (run the load scenario first)" >&2; exit 1; }
      if [[ $WARMUP != 0 ]]; then
        echo "== $s: warm-up $WARMUP"
        wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" --latency -s "$script" "$BASE" -- "$file" | grep '^RESULT' || true
      fi
      results=()
      for n in $(seq 1 "$RUNS"); do
        out=$RESULTS/$stamp-$LABEL-graph-$s-$n.txt
        load0=$(cut -d' ' -f1 /proc/loadavg)
        wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$script" "$BASE" -- "$file" >"$out" || true
        if ! grep -q '^RESULT' "$out"; then
          echo "   run $n: FAILED (no RESULT line; see $out)" >&2
          failed=$((failed + 1))
          continue
        fi
        # 1-minute load average before / after: a hint of other work on the machine
        line="$(grep '^RESULT' "$out") load=$load0/$(cut -d' ' -f1 /proc/loadavg)"
        echo "$line" >>"$out"
        echo "   run $n: ${line#RESULT }"
        results+=("$line")
      done
      if (( ${#results[@]} == 0 )); then
        echo "SUMMARY $s label=$LABEL: no successful run" >&2
        continue
      fi
      printf '%s\n' "${results[@]}" >"$RESULTS/$stamp-$LABEL-graph-$s.results"
      rps=$(printf '%s\n' "${results[@]}" | field rps | median)
      p50=$(printf '%s\n' "${results[@]}" | field p50_ms | median)
      p90=$(printf '%s\n' "${results[@]}" | field p90_ms | median)
      p99=$(printf '%s\n' "${results[@]}" | field p99_ms | median)
      err=$(printf '%s\n' "${results[@]}" | awk '{
          for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          printf "%.6f\n", (v["requests"] > 0 ? (v["non2xx"] + v["socket_errors"]) / v["requests"] : 0) }' | median)
      runs_all=$(printf '%s\n' "${results[@]}" | field rps | paste -sd/)
      [[ $s == follow-check ]] && http_rps=$rps
      printf 'SUMMARY %-12s label=%s median of %d x %s c=%d: %s req/s  p50 %s ms  p90 %s ms  p99 %s ms  errors %s  (runs: %s)\n' \
        "$s" "$LABEL" "${#results[@]}" "$DURATION" "$CONNS" "$rps" "$p50" "$p90" "$p99" "$err" "$runs_all"
      row "$s" "${#results[@]}" "$DURATION" "$CONNS" "$rps" "$p50" "$p90" "$p99" "$err" "$rps" req/s "runs=$runs_all" ;;

    zscore)
      need redis-benchmark "apt-get install redis-tools"
      [[ -s $GRAPH/zscore.txt ]] || { echo "missing $GRAPH/zscore.txt (run the load scenario first)" >&2; exit 1; }
      read -r port key member < "$GRAPH/zscore.txt"
      echo "== zscore: redis-benchmark -h $REDIS_HOST -p $port -c $ZSCORE_CLIENTS -n $ZSCORE_REQUESTS -q ZSCORE $key $member" \
        "(ZCARD $(redis-cli -h "$REDIS_HOST" -p "$port" ZCARD "$key"), score $(redis-cli -h "$REDIS_HOST" -p "$port" ZSCORE "$key" "$member"))"
      rates=()
      for n in $(seq 1 "$RUNS"); do
        out=$RESULTS/$stamp-$LABEL-graph-zscore-$n.txt
        redis-benchmark -h "$REDIS_HOST" -p "$port" -c "$ZSCORE_CLIENTS" -n "$ZSCORE_REQUESTS" -q ZSCORE "$key" "$member" \
          2>&1 | tr '\r' '\n' >"$out" || true
        r=$(grep -o '[0-9.]* requests per second' "$out" | tail -1 | cut -d' ' -f1)
        if [[ -z $r ]]; then
          echo "   run $n: FAILED (see $out)" >&2
          failed=$((failed + 1))
          continue
        fi
        echo "   run $n: $(grep 'requests per second' "$out" | tail -1)"
        rates+=("$r")
      done
      (( ${#rates[@]} )) || { echo "SUMMARY zscore: no successful run" >&2; continue; }
      zrps=$(printf '%s\n' "${rates[@]}" | median)
      src="this invocation"
      if [[ -z $http_rps ]]; then
        http_rps=$(awk -F'\t' -v l="$LABEL" '$2 == l && $3 == "follow-check" {r = $7} END {print r}' "$tsv")
        src="graph-summary.tsv"
      fi
      ratio=$(awk -v h="${http_rps:-}" -v z="$zrps" 'BEGIN {print (h != "" && h != "na" && z > 0 ? sprintf("%.4f", h / z) : "na")}')
      printf 'SUMMARY zscore       label=%s median of %d x %s ZSCORE c=%s on :%s: %s req/s; HTTP follow-check %s req/s (%s) / ZSCORE = %s\n' \
        "$LABEL" "${#rates[@]}" "$ZSCORE_REQUESTS" "$ZSCORE_CLIENTS" "$port" "$zrps" "${http_rps:-na}" "$src" "$ratio"
      row zscore "${#rates[@]}" "n=$ZSCORE_REQUESTS" "$ZSCORE_CLIENTS" "$zrps" - - - - "$ratio" http/zscore \
        "http_follow_check_rps=${http_rps:-na} runs=$(printf '%s\n' "${rates[@]}" | paste -sd/) key=$key" ;;

    receivers)
      [[ -s $GRAPH/celebrities.txt ]] || { echo "missing $GRAPH/celebrities.txt (run the load scenario first)" >&2; exit 1; }
      # the worker/admin user (a 409: it exists already)
      bash bench/admin-account.sh "$BENCH_USER" "$BENCH_PASSWORD" "$BASE"
      token=$(curl -fsS -XPOST "$BASE/v1/sessions" -H 'Content-Type: application/json' \
        -d "{\"username\":\"$BENCH_USER\",\"password\":\"$BENCH_PASSWORD\"}" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
      [[ -n $token ]] || { echo "login of $BENCH_USER failed" >&2; exit 1; }
      out=$RESULTS/$stamp-$LABEL-graph-receivers.txt
      echo "== receivers: boards of $GRAPH/celebrities.txt, limit $RECEIVERS_LIMIT, $RUNS runs"
      set +e
      GRAPH_TOKEN=$token "$JAVA" "${java_opts[@]}" bench/GraphLoad.java receivers --base "$BASE" \
        --celebrities-file "$GRAPH/celebrities.txt" --limit "$RECEIVERS_LIMIT" --runs "$RUNS" \
        --warmup "$([[ $WARMUP == 0 ]] && echo 0 || echo 1)" 2>&1 | tee "$out"
      rc=${PIPESTATUS[0]}
      set -e
      mapfile -t results < <(grep '^RESULT name=receivers' "$out" || true)
      if (( ${#results[@]} == 0 )); then
        echo "SUMMARY receivers: FAILED (exit $rc, no RESULT line; see $out)" >&2
        failed=$((failed + 1))
        continue
      fi
      if (( rc != 0 )) || grep -q PROBLEM "$out"; then
        echo "receivers: problems found (non-200 pages, duplicates, order, or total != counts.followers); see $out" >&2
        failed=$((failed + 1))
      fi
      med() { printf '%s\n' "${results[@]}" | field "$1" | median; }
      ms=$(med ms) pages=$(med pages) recv=$(med receivers) rps=$(med receivers_per_s)
      boards=$(field boards <<<"${results[0]}")
      runs_all=$(printf '%s\n' "${results[@]}" | field ms | paste -sd/)
      printf 'SUMMARY receivers    label=%s median of %d passes over %s boards, limit %s: %s ms, %s pages, %s receivers (%s receivers/s)  (ms per pass: %s)\n' \
        "$LABEL" "${#results[@]}" "$boards" "$RECEIVERS_LIMIT" "$ms" "$pages" "$recv" "$rps" "$runs_all"
      row receivers "${#results[@]}" - 1 - - - - - "$ms" ms "boards=$boards pages=$pages receivers=$recv receivers_per_s=$rps limit=$RECEIVERS_LIMIT runs_ms=$runs_all" ;;
  esac
done
(( failed == 0 )) || { echo "$failed step(s) failed" >&2; exit 1; }
