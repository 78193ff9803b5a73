#!/usr/bin/env bash
# Container health check for the Pinion images: GET http://127.0.0.1:$QUARKUS_HTTP_PORT$PATH over bash's
# /dev/tcp (the native image's base has no curl), healthy on a 200.
#
#   pinion-healthcheck [PATH]    PATH defaults to /q/health/live; the port to $QUARKUS_HTTP_PORT or 8080
set -u
path=${1:-/q/health/live}
port=${QUARKUS_HTTP_PORT:-8080}

exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3
IFS=' ' read -r -t 5 _version status _ <&3 || exit 1
[[ $status == 200 ]]
