# Sourced (not executed) by the MariaDB image's entrypoint on the first start, after grant-shards.sh (the official
# mariadb image and docker/local/Dockerfile.mariadb alike). On every server, masters and replicas alike (a replica
# may be promoted): the operations account the service promotes, fences and re-points servers with (pinion_ops,
# pinion.mysql.ops-user) and the account replicas connect to their master as (pinion_repl). Nothing here goes to
# the binary log: a replica starts from its master's empty log and applies only what the service writes. With
# PINION_REPLICATE_FROM (the master's service name) the server is that master's replica by GTID; it starts
# replicating when the server starts, and the server runs read-only (--read-only in compose.yml).
# shellcheck shell=bash disable=SC2154
: "${PINION_OPS_PASSWORD:?set PINION_OPS_PASSWORD}" "${PINION_REPLICATION_PASSWORD:?set PINION_REPLICATION_PASSWORD}"
sql_quote() { printf "'%s'" "${1//\'/\'\'}"; }
docker_process_sql --database=mysql <<SQL
SET SESSION sql_log_bin = 0;
CREATE USER 'pinion_ops'@'%' IDENTIFIED BY $(sql_quote "$PINION_OPS_PASSWORD");
GRANT READ_ONLY ADMIN, REPLICATION SLAVE ADMIN, SLAVE MONITOR, BINLOG MONITOR, RELOAD ON *.* TO 'pinion_ops'@'%';
CREATE USER 'pinion_repl'@'%' IDENTIFIED BY $(sql_quote "$PINION_REPLICATION_PASSWORD");
GRANT REPLICATION SLAVE, REPLICATION SLAVE ADMIN, BINLOG MONITOR ON *.* TO 'pinion_repl'@'%';
SQL
if [[ -n ${PINION_REPLICATE_FROM:-} ]]; then
  docker_process_sql --database=mysql <<SQL
SET SESSION sql_log_bin = 0;
CHANGE MASTER TO MASTER_HOST = $(sql_quote "$PINION_REPLICATE_FROM"), MASTER_PORT = 3306,
  MASTER_USER = 'pinion_repl', MASTER_PASSWORD = $(sql_quote "$PINION_REPLICATION_PASSWORD"),
  MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 2;
SQL
fi
