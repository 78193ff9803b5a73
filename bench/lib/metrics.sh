# bench/lib/metrics.sh — where a service's metrics are (sourced): its management interface, not its API port.
#
#   metrics_base BASE     prints METRICS if set, else BASE's management address: port 9000 for bin/run's 8080,
#                         the API port + 1000 for any other (bench/app.sh starts its copies so)
metrics_base() {
  if [[ -n ${METRICS:-} ]]; then echo "$METRICS"; return; fi
  local base=$1 port
  port=${base##*:}
  port=${port%%/*}
  if [[ $port == 8080 ]]; then echo "${base%:*}:9000"; else echo "${base%:*}:$((port + 1000))"; fi
}
