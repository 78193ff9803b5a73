#!/usr/bin/env bash
# Entry point of docker/Dockerfile.jvm: runs the Quarkus app with a heap sized from the container's memory limit
# (the JVM reads the cgroup limit; MaxRAMPercentage of it is the heap) and the G1 collector (short pauses and no full
# collections in the steady state of full feeds, where the parallel collector paused 110–200 ms about once a minute:
# docs/benchmarks.md), whatever the base image.
#
#   JAVA_MAX_RAM_PERCENTAGE   heap as a share of the memory limit (default 75)
#   JAVA_OPTS                 replaces the default options below
#   JAVA_OPTS_APPEND          added after them
set -euo pipefail
java=java
[[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]] && java=$JAVA_HOME/bin/java
# shellcheck disable=SC2206 # the options are words
opts=(${JAVA_OPTS:--XX:MaxRAMPercentage=${JAVA_MAX_RAM_PERCENTAGE:-75} -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Djava.util.logging.manager=org.jboss.logmanager.LogManager} ${JAVA_OPTS_APPEND:-})
exec "$java" "${opts[@]}" -jar /deployments/quarkus-run.jar "$@"
