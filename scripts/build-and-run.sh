#!/usr/bin/env bash
# Installs what is missing, builds the release preset and starts the workbench: the window where
# there is a display; where there is none, the main job on the command line: the device and its
# copy ceiling, then a sweep of the vectorized copy over sizes, kept in the history.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --workflow --preset default
bin=build/default/app
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$bin/kwb-gui" ]; then
  echo "Starting the workbench window ($bin/kwb-gui)"
  exec "$bin/kwb-gui"
fi
kwb=$bin/kwb
"$kwb" list
if "$kwb" devices; then
  "$kwb" sweep copy vectorized -s 'n=2^20:2^28:*4'
  "$kwb" history --limit 10
else
  echo "Without a CUDA device the workbench still lists kernels and shows the stored history:"
  "$kwb" history --limit 10
fi
