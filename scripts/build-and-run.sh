#!/usr/bin/env bash
# Installs what is missing, builds the release preset and runs the workbench's main job: the
# device and its copy ceiling, then a sweep of the vectorized copy over sizes, kept in the history.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --workflow --preset default
kwb=build/default/app/kwb
"$kwb" list
if "$kwb" devices; then
  "$kwb" sweep copy vectorized -s 'n=2^20:2^28:*4'
  "$kwb" history --limit 10
else
  echo "Without a CUDA device the workbench still lists kernels and shows the stored history:"
  "$kwb" history --limit 10
fi
