# shellcheck shell=bash
# Shared by bin/backup and bin/restore: the stack's servers as `bin/stack ports` names them, MariaDB and Redis
# clients, the Java tool (bin/lib/backup/BackupTool.java) and small JSON and timing helpers.
# Expects ROOT (the repository) to be set.

STACK=$ROOT/bin/stack
STACK_DIR=${PINION_STACK_DIR:-$ROOT/.stack}
PORT_OFFSET=${PINION_STACK_PORT_OFFSET:-0}

now() { date +%s.%N; }
secs_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
utc() { date -u +%Y-%m-%dT%H:%M:%SZ; }
json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
file_bytes() { stat -c %s "$1"; }

# The port table (`bin/stack ports`): PORT_OF[name], SOCKET_OF[name] (MariaDB), ZK_KEY_OF[name] (HBase).
declare -A PORT_OF=() SOCKET_OF=() ZK_KEY_OF=()
SERVERS=()
read_ports() {
  local name ports rest
  while read -r name ports rest; do
    [[ $name == NAME ]] && continue
    SERVERS+=("$name")
    case $name in
      mysql-*) PORT_OF[$name]=$ports
               SOCKET_OF[$name]=$(sed -n 's/.*(socket \(.*\))$/\1/p' <<<"$rest") ;;
      redis-*) PORT_OF[$name]=$ports ;;
      hbase-*) ZK_KEY_OF[$name]=$(sed -n 's/.*cluster key \(.*\)$/\1/p' <<<"$rest") ;;
    esac
  done < <(bash "$STACK" ports)
  STACK_DIR=$(cd "$STACK_DIR" && pwd -P)
}

mysql_names() { local n; for n in "${SERVERS[@]}"; do if [[ $n == mysql-* ]]; then echo "$n"; fi; done; }
# The shard hosts: mysql-1, mysql-2 (each a pair: NAME and NAME-replica).
mysql_hosts() { mysql_names | grep -v -- '-replica$'; }
redis_names() { local n; for n in "${SERVERS[@]}"; do if [[ $n == redis-* ]]; then echo "$n"; fi; done; }

sql() { local name=$1; shift; mariadb --no-defaults --socket="${SOCKET_OF[$name]}" -uroot "$@"; }
sql_value() { sql "$1" -N -B -e "$2"; }
user_databases() {
  sql_value "$1" "SELECT schema_name FROM information_schema.schemata WHERE schema_name
    NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') ORDER BY schema_name" | tr '\n' ' '
}
replicating() { [[ -n $(sql_value "$1" "SHOW SLAVE STATUS") ]]; }

rcli() { local name=$1; shift; redis-cli -h 127.0.0.1 -p "${PORT_OF[$name]}" "$@"; }
redis_role() { rcli "$1" INFO replication 2>/dev/null | tr -d '\r' | sed -n 's/^role://p'; }
# The Redis instances of the topology: redis-1, redis-2 (each the server of that name and NAME-replica, which Sentinel
# may have made its master).
redis_instances() { redis_names | grep -v -- '-replica$'; }
# The server holding the instance's data now: whichever of NAME and NAME-replica says it is a master.
redis_master_of() {
  local server
  for server in "$1" "$1-replica"; do
    [[ -n ${PORT_OF[$server]:-} && $(redis_role "$server") == master ]] && { echo "$server"; return 0; }
  done
  return 1
}

# Compression: zstd when installed (fast), else gzip.
if command -v zstd >/dev/null; then
  COMPRESS=(zstd -q -3 -T0); DUMP_EXT=sql.zst
else
  COMPRESS=(gzip -1); DUMP_EXT=sql.gz
fi
decompress() {
  case $1 in
    *.zst) zstd -q -dc "$1" ;;
    *.gz) gzip -dc "$1" ;;
    *) cat "$1" ;;
  esac
}

# The Java tool, compiled once per run into a temporary directory on the stack's HBase classpath.
TOOL_DIR=""
TOOL_CP=""
compile_tool() {
  local cp_file=$STACK_DIR/hbase/classpath.txt
  [[ -s $cp_file ]] || { echo "no HBase classpath at $cp_file (run bin/stack up first)" >&2; return 1; }
  TOOL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/pinion-backup-tool.XXXXXX")
  TOOL_CP=$TOOL_DIR:$(<"$cp_file")
  javac -nowarn -d "$TOOL_DIR" -cp "$TOOL_CP" "$ROOT/bin/lib/backup/BackupTool.java"
}
tool() {
  java -Xmx1g -Dlog4j2.configurationFile="$ROOT/bin/lib/backup/log4j2.xml" \
    --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
    -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true -Djava.net.preferIPv4Stack=true \
    -cp "$TOOL_CP" BackupTool "$@"
}
remove_tool() { [[ -n $TOOL_DIR ]] && rm -rf "$TOOL_DIR"; TOOL_DIR=""; }
