# shellcheck shell=bash
# local_topology ROOT: prints the topology file bin/run and bin/admin use, ${PINION_STACK_DIR:-ROOT/.stack}/topology.json,
# made from the bundled local topology the first time. The service watches it and a MySQL promotion rewrites it, so
# the stack's servers and the topology stay together; delete it to start again from the bundled one.
local_topology() {
  local root=$1 file
  file=${PINION_STACK_DIR:-$root/.stack}/topology.json
  if [[ ! -f $file ]]; then
    mkdir -p "$(dirname "$file")"
    cp "$root/src/main/resources/topology/local.json" "$file"
  fi
  echo "$file"
}
