# bench/lib/cpu.sh — CPU time per process role over a run, for the bench/ scripts (sourced).
#
#   cpu_start              remembers every role's CPU ticks now
#   cpu_report REQUESTS    prints "role cores us_per_request" per role since cpu_start, and the machine's busy share
#
# Roles: service (APP_PID, else the process listening on BASE's port, else the first one running quarkus-run.jar), hbase (hbase-primary + hbase-standby), mysql
# (every MariaDB server of the stack), redis (every Redis server and sentinel of the stack), peer (/tmp/tfb-peer.pid),
# all: the machine. STACK_DIR (.stack) is where the stack keeps its pid files.

_cpu_stack=${STACK_DIR:-.stack}

# the pid of the process listening on a TCP port of this host (empty when none)
listening_pid() { # port
  ss -ltnpH "sport = :$1" 2>/dev/null | grep -oE 'pid=[0-9]+' | head -1 | cut -d= -f2
}

# the service's pid: APP_PID, else the process listening on BASE's port (not another Quarkus app such as the peer),
# else the first process running quarkus-run.jar
service_pid() {
  local base=${BASE:-http://127.0.0.1:8080} port pid
  port=${base##*:}; port=${port%%/*}
  pid=${APP_PID:-}
  [[ -n $pid ]] || pid=$(listening_pid "$port")
  [[ -n $pid ]] || pid=$(pgrep -f 'quarkus-run.jar' | head -1 || true)
  echo "$pid"
}

_cpu_pids() { # role
  case $1 in
    service) service_pid ;;
    hbase) cat "$_cpu_stack"/hbase-*/hbase.pid 2>/dev/null ;;
    mysql) cat "$_cpu_stack"/mysql-*/mysqld.pid 2>/dev/null ;;
    redis) cat "$_cpu_stack"/redis-*/*.pid "$_cpu_stack"/sentinel-*/*.pid 2>/dev/null ;;
    peer) cat /tmp/tfb-peer.pid 2>/dev/null ;;
  esac
}

_cpu_ticks() { # role -> summed utime+stime ticks of its live processes
  local total=0 pid t
  for pid in $(_cpu_pids "$1"); do
    t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) && total=$((total + t))
  done
  echo "$total"
}

_cpu_machine() { awk '/^cpu / {print $2+$3+$4+$5+$6+$7+$8, $5+$6}' /proc/stat; }

cpu_start() {
  _cpu_t0=$(date +%s.%N)
  _cpu_machine0=$(_cpu_machine)
  declare -gA _cpu_base=()
  local role
  for role in service hbase mysql redis peer; do _cpu_base[$role]=$(_cpu_ticks "$role"); done
}

cpu_report() { # requests
  local requests=${1:-0} hz seconds role now
  hz=$(getconf CLK_TCK)
  seconds=$(awk -v a="$_cpu_t0" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
  read -r m0 i0 <<<"$_cpu_machine0"; read -r m1 i1 <<<"$(_cpu_machine)"
  printf '  cpu over %.1f s: machine busy %d%%\n' "$seconds" "$(( m1 > m0 ? 100 * ((m1 - m0) - (i1 - i0)) / (m1 - m0) : 0 ))"
  for role in service hbase mysql redis peer; do
    now=$(_cpu_ticks "$role")
    (( now > 0 )) || continue
    awk -v role="$role" -v t="$(( now - ${_cpu_base[$role]:-0} ))" -v hz="$hz" -v s="$seconds" -v r="$requests" \
      'BEGIN { c = t / hz; if (c <= 0) exit; printf "  cpu %-8s %5.2f cores  %7.0f us/request\n", role, c / s, (r > 0 ? c * 1e6 / r : 0) }'
  done
}
