#!/usr/bin/env bash
# Starts one server of the service's ZooKeeper ensemble in the foreground, from the ZooKeeper jars the HBase image
# carries (as bin/stack runs zk-1..3 from the HBase classpath).
#
# Environment:
#   ZK_ID        this server's id: its place in ZK_SERVERS, from 1                       (required)
#   ZK_SERVERS   the ensemble's host names in id order, e.g. "zk-1 zk-2 zk-3"           (required)
#   ZK_HEAP      maximum heap                                                           (default 256m)
# Clients connect on 2181, followers to the leader on 2888, elections on 3888. Data lives under /data (a volume).
set -euo pipefail

: "${ZK_ID:?set ZK_ID, e.g. 1}"
: "${ZK_SERVERS:?set ZK_SERVERS, e.g. zk-1 zk-2 zk-3}"
mkdir -p /data/zk
echo "$ZK_ID" >/data/zk/myid
{
  echo "tickTime=1000"
  echo "initLimit=10"
  echo "syncLimit=5"
  echo "dataDir=/data/zk"
  echo "clientPort=2181"
  echo "minSessionTimeout=2000"
  echo "maxSessionTimeout=20000"
  echo "autopurge.snapRetainCount=3"
  echo "autopurge.purgeInterval=1"
  echo "admin.enableServer=false"
  echo "4lw.commands.whitelist=srvr,ruok,mntr,stat"
  echo "quorumListenOnAllIPs=true"
  id=1
  for host in $ZK_SERVERS; do
    echo "server.$id=$host:2888:3888"
    id=$(( id + 1 ))
  done
} >/data/zoo.cfg
exec java -Xms64m -Xmx"${ZK_HEAP:-256m}" -XX:+UseSerialGC \
  -Dlog4j2.configurationFile=/opt/hbase/conf/zookeeper-log4j2.xml \
  -cp "/opt/hbase/lib/*" org.apache.zookeeper.server.quorum.QuorumPeerMain /data/zoo.cfg
