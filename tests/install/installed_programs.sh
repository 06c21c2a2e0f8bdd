#!/usr/bin/env bash
# Installs the build in $1 into a fresh prefix and runs the installed programs from there: they
# must find their libraries, the example kernel files and (kwb-gui) their worker without the
# build folder. $2 is 1 where the GUI was built.
set -euo pipefail
build=$1
gui=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
kwb=$prefix/bin/kwb
"$kwb" --version
"$kwb" list | grep '^copy  *memcpy' > /dev/null
"$kwb" --no-store check "$prefix/share/kwb/examples/kernels/saxpy.cu"
test -f "$prefix/share/doc/KernelWorkbench/README.md"
test -f "$prefix/share/doc/KernelWorkbench/docs/measuring.md"
zgrep -q 'history database' "$prefix/share/man/man1/kwb.1.gz"
grep -q '^complete -F _kwb kwb$' "$prefix/share/bash-completion/completions/kwb"
if [ "$gui" = 1 ]; then
  QT_QPA_PLATFORM=offscreen "$prefix/bin/kwb-gui" --help | grep -- '--worker' > /dev/null
  zgrep -q -- 'worker' "$prefix/share/man/man1/kwb-gui.1.gz"
  desktop=$prefix/share/applications/kernel-workbench.desktop
  test -f "$prefix/share/icons/hicolor/scalable/apps/kernel-workbench.svg"
  grep -qx 'Exec=kwb-gui' "$desktop"
  metainfo=$prefix/share/metainfo/io.github.kernel_workbench.KernelWorkbench.metainfo.xml
  grep -q '<launchable type="desktop-id">kernel-workbench.desktop</launchable>' "$metainfo"
  # desktop-file-utils and appstream are among scripts/install-deps.sh's packages; without them
  # the test is reported as skipped (77), the rest having passed.
  for tool in desktop-file-validate appstreamcli; do
    if ! command -v $tool > /dev/null; then
      echo "$tool not found: the desktop entry and AppStream metadata are not validated"
      exit 77
    fi
  done
  desktop-file-validate "$desktop"
  appstreamcli validate --no-net "$metainfo"
fi
echo "installed programs ran from $prefix"
