# shellcheck shell=bash
# local_topology ROOT: prints the topology file bin/run and bin/admin use, ${PINION_STACK_DIR:-ROOT/.stack}/topology.json,
# made from the bundled local topology the first time (its ports moved by PINION_STACK_PORT_OFFSET, as bin/stack moves
# the servers'). It seeds the topology in the stack's ZooKeeper the first time, and the service keeps it a copy of
# the topology in force there (a MySQL promotion rewrites both), which bin/stack reads to open the masters.
local_topology() {
  local root=$1 file offset=${PINION_STACK_PORT_OFFSET:-0}
  file=${PINION_STACK_DIR:-$root/.stack}/topology.json
  if [[ ! -f $file ]]; then
    mkdir -p "$(dirname "$file")"
    OFFSET=$offset perl -pe 's/127\.0\.0\.1:(\d+)/"127.0.0.1:" . ($1 + $ENV{OFFSET})/ge' \
      "$root/src/main/resources/topology/local.json" >"$file.tmp"
    mv "$file.tmp" "$file"
  fi
  echo "$file"
}

# local_zookeeper: the connect string of the stack's ZooKeeper ensemble (zk-1..3 of bin/stack, ports moved by
# PINION_STACK_PORT_OFFSET), where the service keeps the topology: a stack at another offset is another cluster.
local_zookeeper() {
  local offset=${PINION_STACK_PORT_OFFSET:-0}
  echo "127.0.0.1:$(( 21821 + offset )),127.0.0.1:$(( 21822 + offset )),127.0.0.1:$(( 21823 + offset ))"
}
