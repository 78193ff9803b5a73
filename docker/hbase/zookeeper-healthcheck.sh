#!/usr/bin/env bash
# Healthy while this ZooKeeper server serves clients: in a quorum, as leader or follower (a server alone never is).
set -u
exec 3<>/dev/tcp/127.0.0.1/2181 || exit 1
printf srvr >&3
grep -qE '^Mode: (leader|follower)' <&3
