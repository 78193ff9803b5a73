#!/usr/bin/env bash
# bench/run-api.sh — wrk benchmark of the read API of a running Pinion (see bench/app.sh, bench/LoadData.java).
#
#   bench/run-api.sh [scenario ...]        scenarios: get-pin board-pins (default: both)
#
# Per scenario: one warm-up run (WARMUP), then RUNS measured runs of
#   wrk -t$THREADS -c$CONNS -d$DURATION --latency -s bench/wrk/<scenario>.lua $BASE -- <id file>
# and a summary line with the medians of req/s, p50, p90, p99 and the error rate ((non-2xx + socket errors) / requests).
# Raw wrk output goes to $RESULTS/<label>-<scenario>-<n>.txt; the medians are appended to $RESULTS/summary.tsv.
#
# BASE (http://127.0.0.1:18090)  RUNS (3)  DURATION (30s)  WARMUP (10s, 0 to skip)  THREADS (2)  CONNS (64)
# DATA (bench/data)  RESULTS ($DATA/results)  LABEL (free text tag for summary.tsv, default "default")
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
BASE=${BASE:-http://127.0.0.1:18090}
RUNS=${RUNS:-3}
DURATION=${DURATION:-30s}
WARMUP=${WARMUP:-10s}
THREADS=${THREADS:-2}
CONNS=${CONNS:-64}
DATA=${DATA:-bench/data}
RESULTS=${RESULTS:-$DATA/results}
LABEL=${LABEL:-default}
scenarios=("$@")
(( ${#scenarios[@]} )) || scenarios=(get-pin board-pins)
mkdir -p "$RESULTS"
curl -fsS -o /dev/null "$BASE/q/health/ready" || { echo "no ready Pinion at $BASE" >&2; exit 1; }

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else if (NR % 2) print a[(NR+1)/2]; else printf "%g\n", (a[NR/2]+a[NR/2+1])/2}'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

[[ -f $RESULTS/summary.tsv ]] || printf 'when\tlabel\tscenario\truns\tduration\tconns\treq_s\tp50_ms\tp90_ms\tp99_ms\terror_rate\treq_s_all_runs\n' >"$RESULTS/summary.tsv"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
for s in "${scenarios[@]}"; do
  case "$s" in
    get-pin) ids=$DATA/pins.txt ;;
    board-pins) ids=$DATA/boards.txt ;;
    *) echo "unknown scenario $s" >&2; exit 2 ;;
  esac
  [[ -s $ids ]] || { echo "missing $ids (run bench/LoadData.java first)" >&2; exit 1; }
  script=bench/wrk/$s.lua
  if [[ $WARMUP != 0 ]]; then
    echo "== $s: warm-up $WARMUP"
    wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" --latency -s "$script" "$BASE" -- "$ids" | grep '^RESULT' || true
  fi
  results=()
  for n in $(seq 1 "$RUNS"); do
    out=$RESULTS/$stamp-$LABEL-$s-$n.txt
    load0=$(cut -d' ' -f1 /proc/loadavg)
    wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$script" "$BASE" -- "$ids" >"$out"
    # 1-minute load average before / after: a hint of other work on the machine (2 cores: ~10 is this test alone)
    line="$(grep '^RESULT' "$out") load=$load0/$(cut -d' ' -f1 /proc/loadavg)"
    echo "$line" >>"$out"
    echo "   run $n: ${line#RESULT }"
    results+=("$line")
  done
  printf '%s\n' "${results[@]}" >"$RESULTS/$stamp-$LABEL-$s.results"
  rps=$(printf '%s\n' "${results[@]}" | field rps | median)
  p50=$(printf '%s\n' "${results[@]}" | field p50_ms | median)
  p90=$(printf '%s\n' "${results[@]}" | field p90_ms | median)
  p99=$(printf '%s\n' "${results[@]}" | field p99_ms | median)
  err=$(printf '%s\n' "${results[@]}" | awk '{
      for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      printf "%.6f\n", (v["requests"] > 0 ? (v["non2xx"] + v["socket_errors"]) / v["requests"] : 0) }' | median)
  all=$(printf '%s\n' "${results[@]}" | field rps | paste -sd/)
  printf 'SUMMARY %-10s label=%s median of %d x %s c=%d: %s req/s  p50 %s ms  p90 %s ms  p99 %s ms  errors %s  (runs: %s)\n' \
    "$s" "$LABEL" "$RUNS" "$DURATION" "$CONNS" "$rps" "$p50" "$p90" "$p99" "$err" "$all"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stamp" "$LABEL" "$s" "$RUNS" "$DURATION" "$CONNS" \
    "$rps" "$p50" "$p90" "$p99" "$err" "$all" >>"$RESULTS/summary.tsv"
done
