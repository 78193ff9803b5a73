#!/usr/bin/env bash
# bench/app.sh — start/stop a benchmark copy of Pinion (built in $APP_DIR) on 127.0.0.1:$PORT.
#
#   bench/app.sh start [-Dkey=value ...]   start in the background, wait until /q/health/ready, print the PID
#   bench/app.sh stop                      stop the instance this script started (by its PID file)
#
# APP_DIR   built clone (default /tmp/pinion-bench; target/quarkus-app/quarkus-run.jar must exist)
# KEY_DIR   RSA key pair priv.pem / pub.pem (default $APP_DIR/keys; generated if missing)
# PORT      HTTP port (default 18090); its management interface (metrics) on PORT + 1000
# RATE_LIMITS  off (default): the per-user and per-address rate limits are disabled, since one load generator on
#           one address signs up thousands of users and writes far above one user's limit; "on" keeps them
set -euo pipefail
APP_DIR=${APP_DIR:-/tmp/pinion-bench}
KEY_DIR=${KEY_DIR:-$APP_DIR/keys}
PORT=${PORT:-18090}
RATE_LIMITS=${RATE_LIMITS:-off}
PIDFILE=$APP_DIR/bench-app.pid
LOG=$APP_DIR/bench-app.log

cmd=${1:-}; shift || true
case "$cmd" in
  start)
    if [[ -f $PIDFILE ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
      echo "already running: pid $(cat "$PIDFILE")" >&2; exit 1
    fi
    mkdir -p "$KEY_DIR"
    if [[ ! -f $KEY_DIR/priv.pem ]]; then
      openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$KEY_DIR/priv.pem" 2>/dev/null
      openssl pkey -in "$KEY_DIR/priv.pem" -pubout -out "$KEY_DIR/pub.pem"
    fi
    cd "$APP_DIR"
    # the prod profile wants these set: the local stack's MySQL password and a secret for this run
    export PINION_MYSQL_PASSWORD=${PINION_MYSQL_PASSWORD:-pinion}
    export PINION_CURSOR_SECRET=${PINION_CURSOR_SECRET:-bench-$(openssl rand -hex 16)}
    PINION_JWT_PRIVATE_KEY=file:$KEY_DIR/priv.pem PINION_JWT_PUBLIC_KEY=file:$KEY_DIR/pub.pem \
      nohup java -Xmx1g -Dquarkus.http.port="$PORT" -Dquarkus.management.port="$((PORT + 1000))" -Dpinion.auth.bcrypt-cost=4 \
      -Dpinion.rate-limit.enabled="$([[ $RATE_LIMITS == on ]] && echo true || echo false)" "$@" \
      -jar target/quarkus-app/quarkus-run.jar >"$LOG" 2>&1 &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 120); do
      if curl -fsS -o /dev/null "http://127.0.0.1:$PORT/q/health/ready" 2>/dev/null; then
        echo "pinion up on :$PORT pid $(cat "$PIDFILE") args: $*"; exit 0
      fi
      kill -0 "$(cat "$PIDFILE")" 2>/dev/null || { echo "app died; log:" >&2; tail -40 "$LOG" >&2; exit 1; }
      sleep 1
    done
    echo "not ready after 120 s; log: $LOG" >&2; exit 1 ;;
  stop)
    [[ -f $PIDFILE ]] || { echo "no pid file" >&2; exit 0; }
    pid=$(cat "$PIDFILE")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    fi
    rm -f "$PIDFILE"; echo "stopped pid $pid" ;;
  *) sed -n '2,10p' "$0"; exit 2 ;;
esac
