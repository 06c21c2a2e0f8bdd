#!/usr/bin/env bash
# Installs the Debian 12 packages that building Kernel Workbench needs, where they are missing.
# The CUDA toolkit (nvcc, CUPTI) is expected in /usr/local/cuda, as NVIDIA's packages put it.
set -euo pipefail
packages=(cmake ninja-build g++ ccache git pkg-config libsqlite3-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libgmock-dev qt6-base-dev libqcustomplot-dev xvfb xauth
          libtomlplusplus-dev libmuparser-dev libssl-dev libqscintilla2-qt6-dev libdlib-dev
          desktop-file-utils appstream help2man dpkg-dev file openssh-client openssh-server
          slurmctld slurmd slurm-client munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "The CUDA toolkit is not in /usr/local/cuda: install it first (https://developer.nvidia.com/cuda-downloads)." >&2
  exit 1
fi
