#!/usr/bin/env bash
# bin/drill redis-failover INSTANCE [--down-after MS] [--lead SECONDS] [-- COMMAND ...] (see bin/drill --help)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
STACK=$HERE/stack

say() { echo "$(date -u +%H:%M:%S.%3N) drill: $*" >&2; }
die() { say "$*"; exit 1; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

instance=${1:-}; shift || true
[[ $instance == redis-1 || $instance == redis-2 ]] || die "usage: bin/drill redis-failover redis-1|redis-2 [--down-after MS] [--lead SECONDS] [-- COMMAND ...]"
down_after=2000 lead=5 command=()
while (( $# )); do
  case $1 in
    --down-after) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--down-after needs milliseconds"; down_after=$2; shift 2 ;;
    --lead) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--lead needs seconds"; lead=$2; shift 2 ;;
    --) shift; command=("$@"); break ;;
    *) die "unknown argument $1" ;;
  esac
done

sentinels=$("$STACK" ports | awk '$1 ~ /^sentinel-/ { print $2 }')
first=$(head -1 <<<"$sentinels")
master_port() { redis-cli -p "$first" SENTINEL GET-MASTER-ADDR-BY-NAME "$instance" | sed -n 2p; }
server_at() { "$STACK" ports | awk -v p="$1" '$2 == p && $1 ~ /^redis-/ { print $1 }'; }
down_after_all() { local s; for s in $sentinels; do redis-cli -p "$s" SENTINEL SET "$instance" down-after-milliseconds "$1" >/dev/null; done; }

port=$(master_port); old=$(server_at "$port")
[[ -n $old ]] || die "Sentinel names :$port as $instance's master, which is no server of the stack"
say "$instance: master $old (:$port) per Sentinel; sentinels act after ${down_after} ms for this drill"
down_after_all "$down_after"
trap 'down_after_all 30000' EXIT

pid=""
if (( ${#command[@]} )); then
  say "running: ${command[*]}"
  "${command[@]}" & pid=$!
  sleep "$lead"
fi

say "kill $old (SIGKILL)"
"$STACK" kill "$old" >/dev/null
t0=$(date +%s%N)
for (( i = 0; i < 600; i++ )); do [[ $(master_port) != "$port" ]] && break; sleep 0.1; done
[[ $(master_port) != "$port" ]] || die "Sentinel did not fail over within 60 s"
new_port=$(master_port)
say "Sentinel promoted $(server_at "$new_port") (:$new_port), $(ms_since "$t0") ms after the kill"

rc=0
if [[ -n $pid ]]; then wait "$pid" || rc=$?; say "command exited $rc"; fi

say "start $old (Sentinel makes it a replica)"
"$STACK" start "$old" >/dev/null
t1=$(date +%s%N)
for (( i = 0; i < 600; i++ )); do
  redis-cli -p "$port" INFO replication | grep -q "master_link_status:up" && break
  sleep 0.1
done
redis-cli -p "$port" INFO replication | grep -q "master_link_status:up" || die "$old is not in sync after 60 s"
say "$old replicates from :$new_port ($(ms_since "$t1") ms); to swap them back: redis-cli -p $first SENTINEL FAILOVER $instance"
exit "$rc"
