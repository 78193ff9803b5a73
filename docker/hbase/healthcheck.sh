#!/usr/bin/env bash
# Healthy once this JVM's log says the master finished initializing (as bin/stack waits for it) and the master
# port accepts connections. The log is rewritten at every start, so an old line never counts.
set -u
grep -q 'Master has completed initialization' /var/log/hbase/hbase.log 2>/dev/null \
  && (exec 3<>"/dev/tcp/127.0.0.1/${HBASE_MASTER_PORT:-16000}") 2>/dev/null
