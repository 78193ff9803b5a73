#!/usr/bin/env bash
# bench/semi-sync.sh — the cost of semi-synchronous replication on the local stack: single-row INSERT commits on
# mysql-1 with asynchronous and with semi-synchronous (AFTER_SYNC) replication to mysql-1-replica, alternated over
# three rounds, at 1 and 16 clients (mysqlslap). Switches semi-sync at run time and back off at the end; uses a scratch
# database that it drops. Run it on a running stack: bash bench/semi-sync.sh
set -e
M="mariadb --no-defaults -h127.0.0.1 -P33061 -upinion_ops -ppinion_ops"
R="mariadb --no-defaults -h127.0.0.1 -P33071 -upinion_ops -ppinion_ops"
$M -e "CREATE DATABASE IF NOT EXISTS bench_semisync; CREATE TABLE IF NOT EXISTS bench_semisync.t (id BIGINT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(64)) ENGINE=InnoDB"
mode() {
  $M -e "SET GLOBAL rpl_semi_sync_master_wait_point=AFTER_SYNC; SET GLOBAL rpl_semi_sync_master_timeout=5000; SET GLOBAL rpl_semi_sync_master_enabled=$1"
  $R -e "SET GLOBAL rpl_semi_sync_slave_enabled=$1; STOP SLAVE IO_THREAD; START SLAVE IO_THREAD"
  sleep 1
}
run() {
  mysqlslap --no-defaults -h127.0.0.1 -P33061 -upinion_ops -ppinion_ops --create-schema=bench_semisync \
    --concurrency=$1 --iterations=1 --number-of-queries=$(( $1 * 400 )) \
    --query="INSERT INTO bench_semisync.t (v) VALUES ('x')" 2>/dev/null | awk '/Average number of seconds/ {print $(NF-1)}'
}
for round in 1 2 3; do
  for m in 0 1; do
    mode $m
    st=$($M -N -e "SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_status'" | awk '{print $2}')
    for c in 1 16; do
      s=$(run $c)
      echo "round=$round semisync=$m status=$st conc=$c queries=$(( c * 400 )) seconds=$s"
    done
  done
done
mode 0
$M -e "DROP DATABASE bench_semisync"
