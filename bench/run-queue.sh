#!/usr/bin/env bash
# bench/run-queue.sh — job-queue benchmark of a running Pinion (see bench/app.sh) with bench/QueueLoad.java.
# The account $BENCH_USER is made admin and worker with bin/admin (bench/admin-account.sh) before the runs.
#
#   bench/run-queue.sh [scenario ...]      scenarios: enqueue-single enqueue-batch dequeue-ack (default: all three)
#
# Per scenario RUNS measured runs of
#   java bench/QueueLoad.java <scenario> --base $BASE --jobs $JOBS --batch B --concurrency C --partitions $PARTITIONS --sync
# each on a fresh queue that QueueLoad creates and deletes (dequeue-ack preloads JOBS jobs first, not measured).
# Defaults: enqueue-single C=5; enqueue-batch C=10 B=10 (jobs per POST); dequeue-ack C=10 loops, B=100 (dequeue max).
# CPU: utime+stime from /proc/<pid>/stat of the app (APP_PID, else $APP_DIR/bench-app.pid) and of the mariadbd
# processes (.stack/mysql-{1,2}/*.pid, else pgrep -f 'mariadbd.*3306[12]'), sampled exactly at the start and end of
# the measured window (QueueLoad --sync stops at "SYNC start" / "SYNC end" until this script has read the counters).
# Per run: CPU seconds, cores (CPU s / wall s) and share of app vs mariadbd in their sum; then the p99 of
# pinion_queue_handoff_seconds for the run's queue from $METRICS/q/metrics (the management interface), read at the end of the measured window (kept
# in <run>.txt.metrics; "na" when the queue had no dequeues).
# Raw output goes to $RESULTS/<stamp>-<label>-queue-<scenario>-<n>.txt; medians (jobs/s, p50, p99, CPU, handoff)
# over the successful runs are printed and appended to $RESULTS/queue-summary.tsv. Beside each enqueue scenario's
# median: the raw durable INSERT rate of the stack's MariaDB at the same concurrency and rows per statement
# (bench/lib/raw-insert.sh), measured right after its runs, and the ratio. Exits 1 if any run failed.
#
# BASE (http://127.0.0.1:8080, bin/run)  RUNS (3)  JOBS (100000)  PARTITIONS (8)  CONCURRENCY, BATCH (override the
# per-scenario defaults)  BENCH_USER (bench_admin)  BENCH_PASSWORD (bench-admin-password)  APP_PID  APP_DIR
# (/tmp/pinion-bench)  DATA (bench/data)  RESULTS ($DATA/results)  LABEL (free text tag, default "default")
# JAVA (java)  JAVA_OPTS (for the driver JVM; default: C1 only, the serial collector and a common fork-join pool of 4)
#
# The driver shares the machine's cores with the service and the databases, so its JVM is made cheap: a run lasts
# seconds, so C2's compilations cost more than they save; and on a machine of fewer than three cores the JDK's
# CompletableFuture runs every async stage of java.net.http on a thread of its own (the common pool's parallelism is
# 1 there), which started one thread per request. Measured (docs/benchmarks.md, "Job queue"): the driver's CPU per
# single enqueue went from 0.94 ms to 0.42-0.45 ms, per batch of 10 from 1.1-1.3 ms to 0.48 ms.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
BASE=${BASE:-http://127.0.0.1:8080}
source "$(dirname "${BASH_SOURCE[0]}")/lib/metrics.sh"
METRICS=$(metrics_base "$BASE")
RUNS=${RUNS:-3}
JOBS=${JOBS:-100000}
PARTITIONS=${PARTITIONS:-8}
BENCH_USER=${BENCH_USER:-bench_admin}
BENCH_PASSWORD=${BENCH_PASSWORD:-bench-admin-password}
APP_DIR=${APP_DIR:-/tmp/pinion-bench}
DATA=${DATA:-bench/data}
RESULTS=${RESULTS:-$DATA/results}
LABEL=${LABEL:-default}
JAVA=${JAVA:-java}
read -r -a java_opts <<<"${JAVA_OPTS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.util.concurrent.ForkJoinPool.common.parallelism=4}"
scenarios=("$@")
(( ${#scenarios[@]} )) || scenarios=(enqueue-single enqueue-batch dequeue-ack)
for s in "${scenarios[@]}"; do
  case "$s" in enqueue-single|enqueue-batch|dequeue-ack) ;; *) echo "unknown scenario $s" >&2; exit 2 ;; esac
done
mkdir -p "$RESULTS"
curl -fsS -o /dev/null "$BASE/q/health/ready" || { echo "no ready Pinion at $BASE" >&2; exit 1; }

# --- processes whose CPU is sampled
alive() { [[ $1 =~ ^[0-9]+$ && -r /proc/$1/stat ]]; }
app_pid=${APP_PID:-}
if [[ -z $app_pid && -r $APP_DIR/bench-app.pid ]]; then app_pid=$(<"$APP_DIR/bench-app.pid"); fi
if [[ -z $app_pid ]]; then source "$HERE/lib/cpu.sh"; app_pid=$(service_pid || true); fi
if ! alive "$app_pid"; then
  echo "warning: no live app process (APP_PID='${APP_PID:-}', $APP_DIR/bench-app.pid): app CPU not sampled" >&2
  app_pid=
fi
is_db() { alive "$1" && [[ $(<"/proc/$1/comm") =~ ^(mariadbd|mysqld)$ ]]; }
db_pids=()
for f in .stack/mysql-1/*.pid .stack/mysql-2/*.pid; do
  [[ -r $f ]] || continue
  p=$(<"$f")
  if is_db "$p"; then db_pids+=("$p"); fi
done
if (( ${#db_pids[@]} == 0 )); then
  for p in $(pgrep -f 'mariadbd.*3306[12]' || true); do
    if is_db "$p"; then db_pids+=("$p"); fi
  done
fi
(( ${#db_pids[@]} )) || echo "warning: no mariadbd process found: database CPU not sampled" >&2
echo "CPU sampling: app pid ${app_pid:-none}, mariadbd pids ${db_pids[*]:-none}"
HZ=$(getconf CLK_TCK)
source bench/lib/raw-insert.sh

# Sets APP_T / DB_T (clock ticks, utime+stime; "" when there is no such process) and NOW (epoch s) without forking.
sample() {
  local pid stat total
  local -a f
  NOW=${EPOCHREALTIME/,/.}
  APP_T=
  if [[ -n $app_pid ]] && read -r stat 2>/dev/null <"/proc/$app_pid/stat"; then
    read -r -a f <<<"${stat##*) }"   # fields from 3 (state) on: comm (field 2) may contain spaces
    APP_T=$(( f[11] + f[12] ))      # utime (14) + stime (15)
  fi
  DB_T=
  total=0
  for pid in "${db_pids[@]}"; do
    read -r stat 2>/dev/null <"/proc/$pid/stat" || continue
    read -r -a f <<<"${stat##*) }"
    total=$(( total + f[11] + f[12] ))
    DB_T=$total
  done
}

# CPU fields of one run from the samples at SYNC start (a0 d0 w0) and SYNC end (a1 d1 w1).
cpu_fields() {
  awk -v a0="$1" -v a1="$2" -v d0="$3" -v d1="$4" -v w0="$5" -v w1="$6" -v hz="$HZ" 'BEGIN {
    w = w1 - w0
    app = (a0 != "" && a1 != "") ? (a1 - a0) / hz : -1
    db = (d0 != "" && d1 != "") ? (d1 - d0) / hz : -1
    if (app >= 0) printf "app_cpu_s=%.2f app_cores=%.2f ", app, (w > 0 ? app / w : 0); else printf "app_cpu_s=na app_cores=na "
    if (db >= 0) printf "db_cpu_s=%.2f db_cores=%.2f ", db, (w > 0 ? db / w : 0); else printf "db_cpu_s=na db_cores=na "
    if (app >= 0 && db >= 0 && app + db > 0) printf "app_share=%.1f db_share=%.1f", 100 * app / (app + db), 100 * db / (app + db)
    else printf "app_share=na db_share=na"
    printf " cpu_wall_s=%.2f\n", w
  }'
}

# p99 of pinion_queue_handoff_seconds for one queue, in seconds as published ("na" if absent), from the metrics
# read at the end of its run (file $2).
handoff_p99() {
  { cat "$2" 2>/dev/null || true; } | awk -v q="queue=\"$1\"" '
    index($0, "pinion_queue_handoff_seconds{") == 1 && index($0, q) && index($0, "quantile=\"0.99\"") { v = $NF }
    END { print (v == "" ? "na" : v) }'
}

median() { grep -E '^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$' | sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "na"; else if (NR % 2) print a[(NR+1)/2]; else printf "%g\n", (a[NR/2]+a[NR/2+1])/2}' || true; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

[[ -f $RESULTS/queue-summary.tsv ]] || printf 'when\tlabel\tscenario\truns_ok\truns\tjobs\tbatch\tconc\tpartitions\tjobs_s\tp50_ms\tp99_ms\tapp_cpu_s\tdb_cpu_s\tapp_share\tdb_share\thandoff_p99_s\tjobs_s_all_runs\n' >"$RESULTS/queue-summary.tsv"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
failed=0
bash bench/admin-account.sh "$BENCH_USER" "$BENCH_PASSWORD" "$BASE"
for s in "${scenarios[@]}"; do
  case "$s" in
    enqueue-single) conc=${CONCURRENCY:-5}; batch=${BATCH:-1} ;;
    enqueue-batch) conc=${CONCURRENCY:-10}; batch=${BATCH:-10} ;;
    dequeue-ack) conc=${CONCURRENCY:-10}; batch=${BATCH:-100} ;;
  esac
  echo "== $s: $RUNS runs, jobs $JOBS, batch $batch, concurrency $conc, partitions $PARTITIONS"
  results=()
  for n in $(seq 1 "$RUNS"); do
    out=$RESULTS/$stamp-$LABEL-queue-$s-$n.txt
    : >"$out"
    a0= a1= d0= d1= w0= w1= result= rc=
    # A pipe for QueueLoad's stdin (the answers to SYNC): opened read-write so neither side blocks on open, and
    # unlinked at once; the descriptor lives until closed below.
    ctl=$(mktemp -u "${TMPDIR:-/tmp}/queue-sync.XXXXXX")
    mkfifo -m 600 "$ctl"
    exec {ctlfd}<>"$ctl"
    rm -f "$ctl"
    while IFS= read -r line || [[ -n $line ]]; do
      case $line in
        'SYNC start') sample; a0=$APP_T d0=$DB_T w0=$NOW; echo go >&"$ctlfd" ;;
        'SYNC end') sample; a1=$APP_T d1=$DB_T w1=$NOW
                    # the queue's series go when QueueLoad deletes it: read them now
                    curl -fsS --max-time 10 "$METRICS/q/metrics" >"$out.metrics" 2>/dev/null || true
                    echo go >&"$ctlfd" ;;
        '@@EXIT '*) rc=${line#@@EXIT } ;;
        '') ;;
        *)
          printf '%s\n' "$line" >>"$out"
          case $line in
            RESULT*) result=$line ;;
            ERROR*|WARN*|FATAL*) echo "   $line" >&2 ;;
          esac ;;
      esac
    done < <(r=0; "$JAVA" "${java_opts[@]}" bench/QueueLoad.java "$s" --base "$BASE" --jobs "$JOBS" --batch "$batch" \
               --concurrency "$conc" --partitions "$PARTITIONS" --user "$BENCH_USER" --password "$BENCH_PASSWORD" \
               --sync <&"$ctlfd" 2>&1 || r=$?; printf '\n@@EXIT %s\n' "$r")
    exec {ctlfd}>&-
    if [[ -z $result ]]; then
      echo "   run $n: FAILED (exit ${rc:-?}, no RESULT line; see $out)" >&2
      failed=$((failed + 1))
      continue
    fi
    queue=$(field queue <<<"$result")
    line="$result $(cpu_fields "$a0" "$a1" "$d0" "$d1" "$w0" "$w1") handoff_p99_s=$(handoff_p99 "$queue" "$out.metrics") exit=$rc"
    echo "$line" >>"$out"
    if [[ $rc != 0 ]]; then
      echo "   run $n: FAILED (exit $rc): ${line#RESULT }" >&2
      failed=$((failed + 1))
      continue
    fi
    echo "   run $n: ${line#RESULT }"
    results+=("$line")
  done
  if (( ${#results[@]} == 0 )); then
    echo "SUMMARY $s label=$LABEL: no successful run" >&2
    continue
  fi
  printf '%s\n' "${results[@]}" >"$RESULTS/$stamp-$LABEL-queue-$s.results"
  med() { printf '%s\n' "${results[@]}" | field "$1" | median; }
  jps=$(med jobs_per_s) p50=$(med p50_ms) p99=$(med p99_ms)
  app_cpu=$(med app_cpu_s) db_cpu=$(med db_cpu_s) app_share=$(med app_share) db_share=$(med db_share)
  handoff=$(med handoff_p99_s)
  all=$(printf '%s\n' "${results[@]}" | field jobs_per_s | paste -sd/)
  raw=na
  if [[ $s == enqueue-* ]]; then raw=$(raw_insert_rate "$conc" "$batch"); fi
  vs_raw=$(awk -v j="$jps" -v r="$raw" 'BEGIN {if (r + 0 > 0) printf "%.2f", j / r; else print "na"}')
  printf 'SUMMARY %-14s label=%s median of %d/%d runs, %s jobs, batch %s, c=%s, %s partitions: %s jobs/s  p50 %s ms  p99 %s ms  CPU app %s s / mariadbd %s s (share %s%% / %s%%)  handoff p99 %s s  raw INSERT %s rows/s (%s×)  (runs: %s)\n' \
    "$s" "$LABEL" "${#results[@]}" "$RUNS" "$JOBS" "$batch" "$conc" "$PARTITIONS" "$jps" "$p50" "$p99" \
    "$app_cpu" "$db_cpu" "$app_share" "$db_share" "$handoff" "$raw" "$vs_raw" "$all"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stamp" "$LABEL" "$s" \
    "${#results[@]}" "$RUNS" "$JOBS" "$batch" "$conc" "$PARTITIONS" "$jps" "$p50" "$p99" "$app_cpu" "$db_cpu" \
    "$app_share" "$db_share" "$handoff" "$all" >>"$RESULTS/queue-summary.tsv"
done
(( failed == 0 )) || { echo "$failed run(s) failed" >&2; exit 1; }
