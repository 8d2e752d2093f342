#!/bin/sh
# Runs soukoban's A* on levels FIRST..LAST of FILE, one process per level, killed after
# LIMIT seconds (and held to MEMORY kilobytes of virtual memory: soukoban's A* stores
# every position and can fill the machine); prints one line per level for the benchmark
# driver's `--external soukoban=FILE` (examples/sokoban/main.rs).
# Usage: tools/soukoban-compare/run.sh FILE FIRST LAST [LIMIT [STRATEGY [MEMORY]]]
# STRATEGY: push-optimal (default) or quick; MEMORY: default 6000000 (about 6 GB).
set -u
file=$1 first=$2 last=$3 limit=${4:-60} strategy=${5:-push-optimal} memory=${6:-6000000}
bin="$(dirname "$0")/target/release/soukoban-compare"
for l in $(seq "$first" "$last"); do
  if ! (ulimit -v "$memory"; timeout "$limit" "$bin" "$file" "$l" "$strategy") 2>/dev/null; then
    echo "level $l failed time-limit-memory-or-error $limit"
  fi
done
