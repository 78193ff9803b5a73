# shellcheck shell=bash
# local_topology ROOT: prints the topology file bin/run and bin/admin use, ${PINION_STACK_DIR:-ROOT/.stack}/topology.json,
# made from the bundled local topology the first time (its ports moved by PINION_STACK_PORT_OFFSET, as bin/stack moves
# the servers'). The service watches it and a MySQL promotion rewrites it, so the stack's servers and the topology stay
# together; delete it to start again from the bundled one.
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
