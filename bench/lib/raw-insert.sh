# bench/lib/raw-insert.sh — the raw durable INSERT rate of the stack's first MariaDB master, for the queue
# benchmarks to print beside their figures (sourced): what the database alone does at the same concurrency, with
# the stack's own durability settings (binary log, sync_binlog=1, innodb_flush_log_at_trx_commit=1, replica
# attached), so a regression of the service and one of the database are told apart.
#
#   raw_insert_rate CONCURRENCY ROWS [STATEMENTS]
#       prints the rows per second of `mysqlslap --concurrency=CONCURRENCY` sending STATEMENTS (default 4000)
#       autocommitted INSERTs of ROWS rows each (bodies of 15 bytes, as the queue benchmarks' jobs) into a table
#       shaped like a queue partition's; prints "na" when mysqlslap or the server's socket is missing.
#
# STACK_DIR (.stack): the stack whose mysql-1 is measured, through its socket as root.

_raw_stack=${STACK_DIR:-.stack}

raw_insert_rate() {
  local conc=$1 rows=$2 statements=${3:-4000} sock="$_raw_stack/mysql-1/mysqld.sock" values="" i secs
  if ! command -v mysqlslap >/dev/null || [[ ! -S $sock ]]; then echo na; return; fi
  for ((i = 0; i < rows; i++)); do
    values+="${values:+,}(0, 2, 0, 'job-000000000001x', UNIX_TIMESTAMP())"
  done
  mysql -uroot -S "$sock" -e "CREATE DATABASE IF NOT EXISTS bench_raw; CREATE TABLE IF NOT EXISTS bench_raw.jobs (
      id BIGINT AUTO_INCREMENT PRIMARY KEY, state TINYINT NOT NULL, priority TINYINT NOT NULL,
      run_after BIGINT NOT NULL, body MEDIUMBLOB NOT NULL, created_at BIGINT NOT NULL,
      KEY due (state, priority, run_after)) ENGINE=InnoDB" || { echo na; return; }
  secs=$(mysqlslap -uroot -S "$sock" --create-schema=bench_raw --concurrency="$conc" \
      --number-of-queries="$statements" \
      --query="INSERT INTO jobs (state, priority, run_after, body, created_at) VALUES $values" 2>/dev/null |
    awk '/Average number of seconds to run all queries/ {print $(NF-1)}')
  mysql -uroot -S "$sock" -e "DROP DATABASE IF EXISTS bench_raw" >/dev/null 2>&1 || true
  if [[ -z $secs ]]; then echo na; return; fi
  awk -v n="$statements" -v r="$rows" -v s="$secs" 'BEGIN {printf "%.0f", n * r / s}'
}
