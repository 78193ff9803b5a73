#!/usr/bin/env bash
# bench/run-mysql.sh — raw MariaDB baseline for GET /v1/pins/{id}: mysqlslap point selects on the pins tables the
# service reads, with ids taken from bench/data/pins.txt (pin id = shard<<46 | 1<<36 | local_id).
#
#   bench/run-mysql.sh [point|join ...]     default: point join
#
#   point  SELECT local_id, data, ts FROM dbNNNNN.pins WHERE local_id = K
#   join   the statement GET /v1/pins/{id} runs (ObjectStore.SELECT_WITH_COUNTS, one id):
#          SELECT o.local_id, o.data, o.ts, c.name, c.value FROM dbNNNNN.pins o
#          LEFT JOIN dbNNNNN.counters c ON c.object_id = <shard base> + o.local_id WHERE o.local_id IN (K)
#
# For each shape: mysql-1 alone (CONC clients), mysql-2 alone (CONC clients), then both hosts at once (two mysqlslap
# processes with BOTH_CONC clients each). Queries are random real ids of the host's shards (SAMPLE per file); every
# mysqlslap client walks the same file from the top. mysqlslap uses the text protocol (the service uses prepared
# statements). q/s = clients x queries per client / mysqlslap's average seconds over ITER iterations.
#
# DATA (bench/data)  QUERIES (100000 per mysqlslap run)  CONC (64)  BOTH_CONC (32)  ITER (3)  SAMPLE (20000)
# MYSQL_USER / MYSQL_PASSWORD (pinion / pinion)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
cd "$HERE/.."
DATA=${DATA:-bench/data}
QUERIES=${QUERIES:-100000}
CONC=${CONC:-64}
BOTH_CONC=${BOTH_CONC:-32}
ITER=${ITER:-3}
SAMPLE=${SAMPLE:-20000}
MYSQL_USER=${MYSQL_USER:-pinion}
MYSQL_PASSWORD=${MYSQL_PASSWORD:-pinion}
RESULTS=${RESULTS:-$DATA/results}
declare -A PORT=([1]=33061 [2]=33062) SCHEMA=([1]=db00000 [2]=db00032) # an existing database per host to connect to
shapes=("$@")
(( ${#shapes[@]} )) || shapes=(point join)
[[ -s $DATA/pins.txt ]] || { echo "missing $DATA/pins.txt (run bench/LoadData.java first)" >&2; exit 1; }
qdir=$DATA/mysql
mkdir -p "$qdir" "$RESULTS"

# Query files, one statement per line: shards 0-31 live on mysql-1, 32-63 on mysql-2 (src/main/resources/topology/local.json).
for shape in point join; do
  for h in 1 2; do
    f=$qdir/$shape-mysql-$h.sql
    [[ -s $f && $f -nt $DATA/pins.txt ]] && continue
    shuf -n "$SAMPLE" --random-source=<(yes) "$DATA/pins.txt" | awk -v host="$h" -v shape="$shape" '
      {
        id = $1 + 0                                  # < 2^53 while shard < 128: exact in awk doubles
        shard = int(id / 2^46); local = id % 2^36
        if ((shard < 32 ? 1 : 2) != host) next
        db = sprintf("db%05d", shard)
        if (shape == "point") {
          printf "SELECT local_id, data, ts FROM %s.pins WHERE local_id = %d;\n", db, local
        } else {
          base = shard * 2^46 + 2^36 - 1               # PinionId.of(shard, PIN, 1) - 1, as ObjectStore binds it
          printf "SELECT o.local_id, o.data, o.ts, c.name, c.value FROM %s.pins o LEFT JOIN %s.counters c ON c.object_id = %.0f + o.local_id WHERE o.local_id IN (%d);\n", db, db, base, local
        }
      }' >"$f"
    echo "wrote $f ($(wc -l <"$f") queries)"
  done
done

slap() { # host clients query-file output
  mysqlslap -h127.0.0.1 -P"${PORT[$1]}" -u"$MYSQL_USER" -p"$MYSQL_PASSWORD" --create-schema="${SCHEMA[$1]}" --no-drop \
    --query="$3" --delimiter=';' --concurrency="$2" --iterations="$ITER" --number-of-queries="$QUERIES" >"$4" 2>&1 || return 1
  ! grep -qi 'error' "$4"   # mysqlslap may exit 0 after failed connects or queries
}
qps() { # output clients -> "q/s avg min max"
  awk -v c="$2" '
    /Average number of seconds/ {avg = $(NF-1)} /Minimum number of seconds/ {min = $(NF-1)}
    /Maximum number of seconds/ {max = $(NF-1)} /Average number of queries per client/ {per = $NF}
    END { if (avg > 0) printf "%.0f %.3f %.3f %.3f\n", c * per / avg, avg, min, max; else print "nan" }' "$1"
}

stamp=$(date -u +%Y%m%dT%H%M%SZ)
[[ -f $RESULTS/mysql.tsv ]] || printf 'when\tshape\ttarget\tclients\tqueries\tq_s\tavg_s\tmin_s\tmax_s\twall_q_s\n' >"$RESULTS/mysql.tsv"
for shape in "${shapes[@]}"; do
  for h in 1 2; do
    out=$RESULTS/$stamp-mysql-$shape-mysql-$h.txt
    slap "$h" "$CONC" "$qdir/$shape-mysql-$h.sql" "$out" || { cat "$out" >&2; exit 1; }
    read -r q avg min max < <(qps "$out" "$CONC")
    printf 'SUMMARY %-5s mysql-%s       c=%-3d %7s q/s  (avg %s s, min %s, max %s per %d queries)\n' "$shape" "$h" "$CONC" "$q" "$avg" "$min" "$max" "$QUERIES"
    printf '%s\t%s\tmysql-%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\n' "$stamp" "$shape" "$h" "$CONC" "$QUERIES" "$q" "$avg" "$min" "$max" >>"$RESULTS/mysql.tsv"
  done
  o1=$RESULTS/$stamp-mysql-$shape-both-1.txt; o2=$RESULTS/$stamp-mysql-$shape-both-2.txt
  t0=$(date +%s.%N)
  slap 1 "$BOTH_CONC" "$qdir/$shape-mysql-1.sql" "$o1" & p1=$!
  slap 2 "$BOTH_CONC" "$qdir/$shape-mysql-2.sql" "$o2" & p2=$!
  wait "$p1" || { cat "$o1" >&2; exit 1; }
  wait "$p2" || { cat "$o2" >&2; exit 1; }
  t1=$(date +%s.%N)
  read -r q1 a1 _ _ < <(qps "$o1" "$BOTH_CONC")
  read -r q2 a2 _ _ < <(qps "$o2" "$BOTH_CONC")
  sum=$((q1 + q2))
  wall=$(awk -v a="$t0" -v b="$t1" -v n="$QUERIES" -v i="$ITER" -v c="$BOTH_CONC" \
    'BEGIN {per = int(n / c) * c; printf "%.0f", 2 * per * i / (b - a)}')
  printf 'SUMMARY %-5s both hosts c=%dx2 %7s q/s  (mysql-1 %s + mysql-2 %s; by wall clock incl. connects %s q/s)\n' \
    "$shape" "$BOTH_CONC" "$sum" "$q1" "$q2" "$wall"
  # q_s: sum of the two per-host rates; avg_s: each host's average seconds; wall_q_s: all queries / wall clock
  printf '%s\t%s\tboth\t%sx2\t%s\t%s\t%s/%s\t-\t-\t%s\n' "$stamp" "$shape" "$BOTH_CONC" "$QUERIES" "$sum" "$a1" "$a2" "$wall" >>"$RESULTS/mysql.tsv"
done
