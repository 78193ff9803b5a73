#!/usr/bin/env bash
# bin/drill mysql-failover HOST [--auto] [--lead SECONDS] [-- COMMAND ...] (see bin/drill --help)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)
STACK=$HERE/stack
# shellcheck source=local-topology.sh
source "$HERE/lib/local-topology.sh"

say() { echo "$(date -u +%H:%M:%S.%3N) drill: $*" >&2; }
die() { say "$*"; exit 1; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

host=${1:-}; shift || true
[[ $host == mysql-1 || $host == mysql-2 ]] || die "usage: bin/drill mysql-failover mysql-1|mysql-2 [--auto] [--lead SECONDS] [-- COMMAND ...]"
auto=0 lead=5 command=()
while (( $# )); do
  case $1 in
    --auto) auto=1; shift ;;
    --lead) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--lead needs seconds"; lead=$2; shift 2 ;;
    --) shift; command=("$@"); break ;;
    *) die "unknown argument $1" ;;
  esac
done

topology=$(local_topology "$ROOT")
# server_at PORT: the stack's MariaDB server on that port
server_at() {
  local n
  for n in mysql-1 mysql-2; do
    [[ $("$STACK" ports | awk -v n="$n" '$1 == n { print $2 }') == "$1" ]] && { echo "$n"; return; }
    [[ $("$STACK" ports | awk -v n="$n-replica" '$1 == n { print $2 }') == "$1" ]] && { echo "$n-replica"; return; }
  done
  die "no server of the stack listens on $1"
}
# endpoint_port master|replica: the port the topology file names for the host (perl's JSON::PP, any layout)
endpoint_port() {
  HOST=$host ROLE=$1 perl -MJSON::PP -0777 -ne '
    for my $h (@{decode_json($_)->{mysql}{hosts}}) {
      print((split /:/, $h->{$ENV{ROLE}} // "")[-1]) if $h->{name} eq $ENV{HOST};
    }' "$topology"
}

master_port=$(endpoint_port master); replica_port=$(endpoint_port replica)
[[ -n $master_port && -n $replica_port ]] || die "$topology names no master and replica for $host"
old=$(server_at "$master_port"); new=$(server_at "$replica_port")
say "$host: master $old (:$master_port), replica $new (:$replica_port); topology $topology"

pid=""
if (( ${#command[@]} )); then
  say "running: ${command[*]}"
  "${command[@]}" & pid=$!
  sleep "$lead"
fi

say "kill $old (SIGKILL)"
"$STACK" kill "$old" >/dev/null
t0=$(date +%s%N)
if (( auto )); then
  say "waiting for the service to promote $new (pinion.mysql.failover-after)"
else
  # the master was killed: it cannot be fenced, which only an operator may decide to go past
  say "bin/admin promote $host --force"
  "$HERE/admin" promote "$host" --force >&2
fi
for (( i = 0; i < 1200; i++ )); do
  [[ $(endpoint_port master) == "$replica_port" ]] && break
  sleep 0.1
done
[[ $(endpoint_port master) == "$replica_port" ]] || die "the topology does not name $new master after 120 s"
say "$new is $host's master in the topology, $(ms_since "$t0") ms after the kill"

rc=0
if [[ -n $pid ]]; then wait "$pid" || rc=$?; say "command exited $rc"; fi

say "start $old (it comes back read-only)"
PINION_TOPOLOGY_FILE=$topology "$STACK" start "$old" >/dev/null
t1=$(date +%s%N)
if out=$("$HERE/admin" rejoin "$host" 2>&1); then
  say "$(tail -n 1 <<<"$out")"
elif grep -q "diverged" <<<"$out"; then
  say "$(grep -oE "holds [0-9]+ transaction\(s\)[^:]*" <<<"$out" | head -1): rebuilding $old from $new"
  "$STACK" reseed "$old" --from "$new" >&2
else
  echo "$out" >&2; die "rejoin failed"
fi
say "$old replicates from $new ($(ms_since "$t1") ms); to swap them back: bin/admin promote $host && bin/admin rejoin $host"
exit "$rc"
