#!/usr/bin/env bash
# bench/graph-memory.sh — what a follow edge costs in Redis, exactly: the sum of MEMORY USAGE (SAMPLES 0, every
# element counted) of every user's explicit-following (:fu) and explicit-followers (:fre) sorted set on every
# instance, divided by the edges (the members of all :fu sets). Each edge is one member of each, so this is the
# cost of both directions together, key overhead included. Also prints how many sets and members are in each
# encoding (listpack or skiplist) and the Redis settings that decide it.
#
#   bench/graph-memory.sh
#
# REDIS_HOST (127.0.0.1)  REDIS_PORTS ("63791 63792")
set -euo pipefail
REDIS_HOST=${REDIS_HOST:-127.0.0.1}
REDIS_PORTS=${REDIS_PORTS:-63791 63792}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for port in $REDIS_PORTS; do
  cli=(redis-cli -h "$REDIS_HOST" -p "$port")
  echo "instance :$port  $("${cli[@]}" CONFIG GET zset-max-listpack-entries | paste -sd' ')" \
       "$("${cli[@]}" CONFIG GET zset-max-listpack-value | paste -sd' ')"
  for suffix in fu fre; do
    "${cli[@]}" --scan --pattern "g:{*}:u:*:$suffix" >"$tmp/keys"
    # per key: bytes, members, encoding
    awk '{print "MEMORY USAGE " $0 " SAMPLES 0"; print "ZCARD " $0; print "OBJECT ENCODING " $0}' "$tmp/keys" \
      | "${cli[@]}" | paste - - - | sed "s/^/$suffix\t/" >>"$tmp/rows"
  done
done

awk -F'\t' '
  { bytes[$1] += $2; members[$1] += $3; keys[$1]++; enc[$1 " " $4] += $3; enckeys[$1 " " $4]++ }
  END {
    for (s in keys) printf "%-4s %9d sets %10d members %12d bytes  %.1f B/member\n", s, keys[s], members[s], bytes[s], bytes[s] / members[s]
    for (e in enc) printf "     %-14s %9d sets %10d members\n", e, enckeys[e], enc[e]
    printf "edges %d, both directions %.1f bytes per edge\n", members["fu"], (bytes["fu"] + bytes["fre"]) / members["fu"]
  }' "$tmp/rows"
