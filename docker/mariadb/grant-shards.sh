# Sourced (not executed) by the MariaDB image's entrypoint on the first start, after it created MARIADB_USER (the
# official mariadb image and docker/local/Dockerfile.mariadb alike): the service's account gets every privilege on
# the shard databases (db00000, db00001, ...) and, to read a replica's state for its health check (SHOW SLAVE STATUS),
# SLAVE MONITOR; nothing else. The service creates and migrates the databases itself. Not in the binary log: a
# replica (docker/mariadb/replication.sh) makes its own accounts and replays only the service's writes.
# shellcheck shell=bash disable=SC2154
docker_process_sql --database=mysql <<<"SET SESSION sql_log_bin = 0; GRANT ALL PRIVILEGES ON \`db%\`.* TO '${MARIADB_USER}'@'%';
  GRANT SLAVE MONITOR ON *.* TO '${MARIADB_USER}'@'%';"
