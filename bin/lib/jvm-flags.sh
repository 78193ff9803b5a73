# bin/lib/jvm-flags.sh — the service's default JVM flags, for bin/run and bin/cluster (sourced). PINION_JVM_FLAGS
# replaces them. G1: in the steady state of full feeds its pauses stay under ~75 ms with no full collection, where the
# parallel collector stopped the service for 110–200 ms about once a minute (docs/benchmarks.md, 2026-12-04 morning).
# shellcheck disable=SC2034 # used by the scripts that source this file
PINION_DEFAULT_JVM_FLAGS="-XX:+UseG1GC -XX:+ExitOnOutOfMemoryError"
