# bench/lib/cluster.sh — a fresh bin/cluster for the bench/ scripts (sourced).
#
#   cluster_up N LOG    bin/cluster down, then up with N instances (output to LOG); sets CLUSTER_DIR and exports
#                       APP_PID as the instances' pids (bench/lib/cpu.sh counts them together as the service)

cluster_up() { # instances log
  bin/cluster down >/dev/null 2>&1 || true
  bin/cluster up --instances "$1" --no-build >"$2" 2>&1
  CLUSTER_DIR=${PINION_CLUSTER_DIR:-${STACK_DIR:-.stack}/cluster}
  APP_PID=$(cat "$CLUSTER_DIR"/instance-*.pid | tr '\n' ' ')
  export APP_PID
}
