#!/usr/bin/env bash
# Builds the Debian package of the build in $1, installs it with dpkg into a fresh root, checks
# that this machine has what it depends on, and runs the installed programs from that root. $2 is
# 1 where the GUI was built.
set -euo pipefail
build=$1
gui=$2
for tool in dpkg-deb dpkg-shlibdeps file apt-get; do
  if ! command -v $tool > /dev/null; then
    echo "$tool not found (dpkg-dev and file are among scripts/install-deps.sh's packages): no package built"
    exit 77
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" > "$work/cpack.log" ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(echo "$work"/kernel-workbench_*.deb)
dpkg-deb --field "$deb" Package Version Depends Recommends

# Its dependencies are Debian packages, all of them here (the build needed them): installing the
# package on this machine would add nothing else.
simulated=$(apt-get install --simulate --no-install-recommends "$deb" 2>&1) ||
  { echo "$simulated"; exit 1; }
grep -q '^Inst kernel-workbench ' <<< "$simulated" || { echo "$simulated"; exit 1; }
extra=$(awk '/^Inst / && $2 != "kernel-workbench" {print $2}' <<< "$simulated")
if [ -n "$extra" ]; then
  echo "installing the package here would also install: $extra"
  exit 1
fi

# A fresh root of dpkg's own: its database empty, so dependencies are not looked for there.
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
     --log=/dev/null --install "$deb" > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
dpkg --root="$root" --status kernel-workbench | grep -qx 'Status: install ok installed'

usr=$root/usr
"$usr/bin/kwb" --version
"$usr/bin/kwb" list | grep '^copy  *memcpy' > /dev/null
"$usr/bin/kwb" --no-store check "$usr/share/kwb/examples/kernels/saxpy.cu"
zgrep -q "history database" "$usr/share/man/man1/kwb.1.gz"
test -f "$usr/share/bash-completion/completions/kwb"
if [ "$gui" = 1 ]; then
  QT_QPA_PLATFORM=offscreen "$usr/bin/kwb-gui" --help | grep -- '--worker' > /dev/null
  test -f "$usr/share/applications/kernel-workbench.desktop"
  test -f "$usr/share/metainfo/io.github.kernel_workbench.KernelWorkbench.metainfo.xml"
fi
echo "$(basename "$deb") installed into a fresh root and ran from $usr"
