#!/usr/bin/env bash
# Installs what is missing, builds the lean CI preset and runs every test. GPU tests (ctest label
# gpu) run where there is a CUDA device and are reported as skipped where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --workflow --preset ci
