#!/usr/bin/env bash
# Starts one standalone HBase in the foreground with bin/stack's settings, for a container.
#
# Environment:
#   HBASE_NAME          cluster name and ZooKeeper parent znode (/NAME), e.g. hbase-primary   (required)
#   HBASE_HOSTNAME      name the master and region server advertise to clients    (default: the container's hostname)
#   HBASE_ZK_PORT       embedded ZooKeeper client port                            (default 2181)
#   HBASE_MASTER_PORT   master RPC port, the clients' bootstrap address           (default 16000)
#   HBASE_RS_PORT       region server RPC port                                    (default 16020)
#   HBASE_REPLICATION_SOURCE=true   ship edits to replication peers within a few hundred ms (the primary)
#   HBASE_HEAP          maximum heap                                              (default 1g)
# Data lives under /data (a volume); the log goes to stdout and /var/log/hbase/hbase.log (for the health check).
set -euo pipefail

: "${HBASE_NAME:?set HBASE_NAME, e.g. hbase-primary}"
host=${HBASE_HOSTNAME:-$(hostname)}
zk_port=${HBASE_ZK_PORT:-2181}
master_port=${HBASE_MASTER_PORT:-16000}
rs_port=${HBASE_RS_PORT:-16020}
mkdir -p /data/root /data/zk /data/tmp

# Generic Hadoop options (-D key=value after the class name) override hbase-default.xml. Compared with bin/stack:
# servers listen on every interface and advertise the container's name, and the embedded ZooKeeper accepts
# connections from other containers (the primary reaches the standby's to replicate).
conf=(
  hbase.cluster.distributed=false
  hbase.rootdir=file:///data/root
  hbase.zookeeper.property.dataDir=/data/zk
  hbase.tmp.dir=/data/tmp
  hbase.zookeeper.quorum=127.0.0.1
  "hbase.zookeeper.property.clientPort=$zk_port"
  hbase.zookeeper.property.clientPortAddress=0.0.0.0
  "zookeeper.znode.parent=/$HBASE_NAME"
  "hbase.master.port=$master_port"
  "hbase.regionserver.port=$rs_port"
  "hbase.master.hostname=$host"
  "hbase.unsafe.regionserver.hostname=$host"
  hbase.master.ipc.address=0.0.0.0
  hbase.regionserver.ipc.address=0.0.0.0
  hbase.master.info.port=-1
  hbase.regionserver.info.port=-1
  hbase.master.wait.on.regionservers.maxtostart=1
  hbase.unsafe.stream.capability.enforce=false
  hbase.replication=true
  zookeeper.recovery.retry=1
  zookeeper.recovery.retry.intervalmill=200
  zookeeper.session.timeout.localHBaseCluster=120000
  hbase.zookeeper.property.maxSessionTimeout=120000
)
if [[ ${HBASE_REPLICATION_SOURCE:-false} == true ]]; then
  conf+=(replication.source.sleepforretries=100 replication.source.maxretriesmultiplier=10)
fi
dargs=()
for kv in "${conf[@]}"; do dargs+=(-D "$kv"); done

exec java -Xms256m "-Xmx${HBASE_HEAP:-1g}" -XX:+UseG1GC \
  -Djava.net.preferIPv4Stack=true \
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true \
  --add-modules jdk.unsupported \
  --add-opens java.base/java.nio=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
  --add-opens java.base/java.util=ALL-UNNAMED \
  --add-opens java.base/java.util.concurrent=ALL-UNNAMED \
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED \
  --add-exports java.base/sun.net.dns=ALL-UNNAMED \
  --add-exports java.base/sun.net.util=ALL-UNNAMED \
  -Dlog4j2.configurationFile=/opt/hbase/conf/log4j2.xml \
  -Dhbase.log.dir=/var/log/hbase -Dhbase.log.file=hbase.log \
  -Djava.io.tmpdir=/data/tmp \
  -cp '/opt/hbase/lib/*' \
  org.apache.hadoop.hbase.master.HMaster "${dargs[@]}" start
