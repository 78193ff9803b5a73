#!/usr/bin/env bash
# Entry point of docker/local/Dockerfile.mariadb: on the first start (an empty /var/lib/mysql) it creates the system
# tables, a random root password, the MARIADB_USER account and runs /docker-entrypoint-initdb.d, on a server that
# listens on no network (so a health check over TCP fails until it is done); then it runs mariadbd.
set -euo pipefail

if [[ ${1:-} == -* ]]; then set -- mariadbd "$@"; fi
if [[ ${1:-} != mariadbd ]]; then exec "$@"; fi

datadir=/var/lib/mysql
socket=/run/mysqld/init.sock

docker_process_sql() {
  mariadb --no-defaults --protocol=socket --socket="$socket" -uroot "$@"
}

if [[ ! -d $datadir/mysql ]]; then
  : "${MARIADB_USER:?set MARIADB_USER}" "${MARIADB_PASSWORD:?set MARIADB_PASSWORD}"
  echo "entrypoint: initialising $datadir"
  mariadb-install-db --datadir="$datadir" --auth-root-authentication-method=normal --skip-test-db \
    --skip-name-resolve >/dev/null
  "$@" --skip-networking --socket="$socket" &
  pid=$!
  for _ in $(seq 1 60); do
    mariadb-admin --no-defaults --socket="$socket" -uroot ping >/dev/null 2>&1 && break
    sleep 0.5
  done
  user=${MARIADB_USER//\'/\'\'} password=${MARIADB_PASSWORD//\'/\'\'}
  docker_process_sql --database=mysql <<<"SET SESSION sql_log_bin = 0; CREATE USER '$user'@'%' IDENTIFIED BY '$password';"
  for f in /docker-entrypoint-initdb.d/*; do
    case $f in
      *.sh) echo "entrypoint: running $f"; source "$f" ;;
      *.sql) echo "entrypoint: running $f"; docker_process_sql --database=mysql <"$f" ;;
    esac
  done
  # root only over the socket inside the container, with a password nobody keeps (as MARIADB_RANDOM_ROOT_PASSWORD)
  root=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  docker_process_sql --database=mysql <<<"SET SESSION sql_log_bin = 0; ALTER USER 'root'@'localhost' IDENTIFIED BY '$root'; FLUSH PRIVILEGES;"
  unset root
  kill -TERM "$pid"
  wait "$pid" || true
  echo "entrypoint: initialised"
fi
exec "$@"
