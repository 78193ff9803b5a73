#!/bin/sh
# The entry point of the Compose project's Redis servers and Sentinels (docker/compose.yml), on the official redis
# image or docker/local/Dockerfile.redis alike:
#
#   start.sh server     a Redis server; with REDIS_REPLICA_OF=<master's service name> it starts as that master's replica
#   start.sh sentinel   a Sentinel watching the masters named in SENTINEL_MASTERS (service names, port 6379)
#
# Each writes its configuration file into /data the first time and keeps it afterwards: Sentinel rewrites both files
# when it fails a master over (the promoted replica's `replicaof` is removed, the old master's added), so a restarted
# container keeps the role it was given last. Addresses are the containers' service names, never their IP
# addresses, which change when a container is recreated: servers announce their name to Sentinel
# (replica-announce-ip REDIS_NAME), and Sentinel resolves and announces names (so the service is told
# `redis-1-replica 6379` after a failover and finds it on the project's network). REDIS_PASSWORD is the servers'
# password (the Sentinels have none of their own: they are reached only inside the project's network).
set -eu

# the official image starts as root and runs Redis as its redis user; so does this
if [ "$(id -u)" = 0 ] && command -v gosu >/dev/null 2>&1; then
  chown redis:redis /data
  exec gosu redis "$0" "$@"
fi

: "${REDIS_PASSWORD:?set REDIS_PASSWORD}"
case ${1:-server} in
  server)
    : "${REDIS_NAME:?set REDIS_NAME to the server's service name}"
    conf=/data/redis.conf
    if [ ! -f "$conf" ]; then
      {
        echo "appendonly yes"
        echo "appendfsync everysec"
        echo 'save ""'
        echo "zset-max-listpack-entries 1024"
        echo "replica-announce-ip $REDIS_NAME"
        if [ -n "${REDIS_REPLICA_OF:-}" ]; then echo "replicaof $REDIS_REPLICA_OF 6379"; fi
      } >"$conf.tmp"
      mv "$conf.tmp" "$conf"
    fi
    # the password from the environment, never from the file (a rotated one is in force on the next start)
    exec redis-server "$conf" --requirepass "$REDIS_PASSWORD" --masterauth "$REDIS_PASSWORD"
    ;;
  sentinel)
    : "${SENTINEL_MASTERS:?set SENTINEL_MASTERS to the masters' service names}"
    conf=/data/sentinel.conf
    if [ ! -f "$conf" ]; then
      {
        echo "port 26379"
        echo "sentinel resolve-hostnames yes"
        echo "sentinel announce-hostnames yes"
        for master in $SENTINEL_MASTERS; do
          echo "sentinel monitor $master $master 6379 ${SENTINEL_QUORUM:-2}"
          echo "sentinel auth-pass $master $REDIS_PASSWORD"
          echo "sentinel down-after-milliseconds $master ${SENTINEL_DOWN_AFTER_MS:-5000}"
          echo "sentinel failover-timeout $master ${SENTINEL_FAILOVER_TIMEOUT_MS:-10000}"
          echo "sentinel parallel-syncs $master 1"
        done
      } >"$conf.tmp"
      mv "$conf.tmp" "$conf"
    fi
    exec redis-server "$conf" --sentinel
    ;;
  *)
    echo "start.sh: server or sentinel, not $1" >&2
    exit 2
    ;;
esac
