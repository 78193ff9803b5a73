# bench/lib/pins.sh — a random sample of active pins of the local stack (sourced by bench/ scripts).
#
#   sample_pins N SEED FILE    N pins drawn evenly from every shard database of the stack's MariaDB servers (their
#                              sockets under $STACK_DIR), with RAND(SEED): the same pins for the same seed
sample_pins() {
  local n=$1 seed=$2 file=$3 stack=${STACK_DIR:-.stack}
  local sockets=("$stack"/mysql-*/mysqld.sock) dbs=() sock db
  for sock in "${sockets[@]}"; do
    while read -r db; do dbs+=("$sock $db"); done < <(mysql -S "$sock" -u root -N -e "SHOW DATABASES LIKE 'db%'")
  done
  (( ${#dbs[@]} )) || { echo "no shard databases found through $stack/mysql-*/mysqld.sock" >&2; return 1; }
  local per=$(( (n + ${#dbs[@]} - 1) / ${#dbs[@]} ))
  for entry in "${dbs[@]}"; do
    read -r sock db <<<"$entry"
    # id = shard << 46 | pin type << 36 | local id
    mysql -S "$sock" -u root -N -e "SELECT local_id FROM $db.pins WHERE JSON_VALUE(data, '$.active') = 1 ORDER BY RAND($seed) LIMIT $per" \
      | awk -v shard=$((10#${db#db})) '{printf "%.0f\n", shard * 2^46 + 2^36 + $1}'
  done | shuf -n "$n" --random-source=<(yes) >"$file"
  echo "pins: $(wc -l <"$file") from ${#dbs[@]} shard databases"
}
