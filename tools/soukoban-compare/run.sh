#!/bin/sh
# Runs soukoban's push-optimal A* on levels FIRST..LAST of FILE, one process per level,
# killed after LIMIT seconds; prints one line per level for the benchmark driver's
# `--external soukoban=FILE` (examples/sokoban/main.rs).
# Usage: tools/soukoban-compare/run.sh FILE FIRST LAST [LIMIT]
set -u
file=$1 first=$2 last=$3 limit=${4:-60}
bin="$(dirname "$0")/target/release/soukoban-compare"
for l in $(seq "$first" "$last"); do
  if ! timeout "$limit" "$bin" "$file" "$l"; then
    echo "level $l failed time-limit-or-error $limit"
  fi
done
