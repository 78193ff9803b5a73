#!/usr/bin/env bash
# bin/drill restore [--offset N] [--keep] (see bin/drill --help): back up the running stack, restore the backup into a
# fresh stack beside it, compare, and take the restored stack down again.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)

say() { echo "$(date -u +%H:%M:%S.%3N) drill: $*" >&2; }
die() { say "$*"; exit 1; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

offset="" keep=0
while (( $# )); do
  case $1 in
    --offset) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--offset needs a number"; offset=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) die "usage: bin/drill restore [--offset N] [--keep]" ;;
  esac
done
# without --offset: the first of 1000, 1100 … 1700 at which every port of the stack can be bound now (the moved MySQL
# ports lie in the kernel's ephemeral range, where an outgoing connection may hold one)
if [[ -z $offset ]]; then
  ports=$(PINION_STACK_PORT_OFFSET=0 "$HERE/stack" ports | awk 'NR > 1 { print $2, $3, $4 }' | grep -oE '[0-9]{4,5}' | tr '\n' ' ')
  for candidate in 1000 1100 1200 1300 1400 1500 1600 1700; do
    if PORTS=$ports OFFSET=$candidate perl -MIO::Socket::INET -e '
        for my $p (split " ", $ENV{PORTS}) {
          IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $p + $ENV{OFFSET}, Listen => 1, ReuseAddr => 1)
            or exit 1;
        }'; then offset=$candidate; break; fi
  done
  [[ -n $offset ]] || die "no port offset from 1000 to 1700 has all of the stack's ports free"
fi
(( offset > 0 )) || die "--offset must move the restored stack off the running one's ports"

source_dir=${PINION_STACK_DIR:-$ROOT/.stack}
work=$(mktemp -d "${TMPDIR:-/tmp}/pinion-restore-drill.XXXXXX")
target=$work/stack
cleanup() {
  if (( keep )); then
    say "kept: the backup in $work/backup, the restored stack in $target (ports +$offset); take it down with:"
    say "  PINION_STACK_DIR=$target PINION_STACK_PORT_OFFSET=$offset bin/stack down"
  else
    say "taking the restored stack down"
    PINION_STACK_DIR=$target PINION_STACK_PORT_OFFSET=$offset "$HERE/stack" down >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
}
trap cleanup EXIT

t0=$(date +%s%N)
say "bin/backup of $source_dir"
PINION_STACK_DIR=$source_dir "$HERE/backup" "$work/backup" >&2
say "backup took $(ms_since "$t0") ms ($(du -sh "$work/backup" | cut -f1))"
t1=$(date +%s%N)
say "bin/restore into $target (ports +$offset)"
PINION_STACK_DIR=$target PINION_STACK_PORT_OFFSET=$offset "$HERE/restore" "$work/backup" >&2
say "restore took $(ms_since "$t1") ms (a fresh stack included; it checked every Redis instance's keys)"

# every MySQL table's rows on the restored masters against the counts the backup took from its dumps
t2=$(date +%s%N)
ports=$(PINION_STACK_DIR=$target PINION_STACK_PORT_OFFSET=$offset "$HERE/stack" ports)
checked=0 differ=0
for host in $(perl -MJSON::PP -0777 -ne 'print join(" ", sort keys %{decode_json($_)->{mysql}})' "$work/backup/manifest.json"); do
  port=$(awk -v n="$host" '$1 == n { print $2 }' <<<"$ports")
  expected=$(perl -MJSON::PP -0777 -ne '
    my $t = decode_json($_)->{mysql}{"'"$host"'"}{dump}{tables};
    print "$_\t$t->{$_}\n" for sort keys %$t' "$work/backup/manifest.json")
  [[ -n $expected ]] || continue
  actual=$(awk -F'\t' '{ split($1, p, "."); printf "SELECT %c%s%c, COUNT(*) FROM `%s`.`%s`;\n", 39, $1, 39, p[1], p[2] }' \
      <<<"$expected" | mariadb --no-defaults -h127.0.0.1 -P"$port" -upinion -ppinion -N -B)
  while IFS=$'\t' read -r table rows; do
    checked=$((checked + 1))
    got=$(awk -F'\t' -v t="$table" '$1 == t { print $2 }' <<<"$actual")
    [[ $got == "$rows" ]] || { differ=$((differ + 1)); say "$table: $got rows restored, $rows backed up"; }
  done <<<"$expected"
done
(( differ == 0 )) || die "$differ of $checked tables differ"
say "$checked tables: the same rows as backed up ($(ms_since "$t2") ms)"
say "the whole drill: $(ms_since "$t0") ms"
