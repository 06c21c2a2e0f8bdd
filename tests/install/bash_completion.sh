#!/usr/bin/env bash
# Completes command lines with the bash completion script kwb wrote ($1), as bash would at the end
# of each line, and checks what it offers.
set -o pipefail  # no -e or -u: bash completes without them
source "$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
touch saxpy.cu notes.txt results.json
mkdir kernels

failures=0
# offers LINE WORD...: completing LINE offers every WORD; `offers LINE -` offers nothing.
offers() {
  local line=$1
  shift
  COMP_LINE=$line COMP_POINT=${#line} COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
  _kwb
  local got=" ${COMPREPLY[*]-} " word
  if [ "$1" = - ]; then
    [ "$got" = "  " ] && return
    echo "'$line' offered$got, expected nothing"
    failures=$((failures + 1))
    return
  fi
  for word in "$@"; do
    if [[ $got != *" $word "* ]]; then
      echo "'$line' offered$got, not $word"
      failures=$((failures + 1))
    fi
  done
}

offers "kwb " run sweep tune lesson check history db
offers "kwb ru" run
offers "kwb --db " kernels results.json
offers "kwb run cop" copy
offers "kwb run " copy elementwise permute giou saxpy.cu kernels
offers "kwb list " copy elementwise
offers "kwb run copy " memcpy vectorized
offers "kwb --db h.sqlite --json run copy " memcpy vectorized
offers "kwb run copy vectorized bl" block_size=
offers "kwb run copy vectorized n=2^20 vec" vector_bytes=
offers "kwb run copy vectorized dtype=b" bf16
offers "kwb run elementwise packed pack_size=" auto
offers "kwb sweep copy vectorized -s vec" vector_bytes=
offers "kwb sweep -s n=1:4 copy vectorized --mo" --mode
offers "kwb run copy vectorized --mode " cold hot
offers "kwb run copy vectorized --metrics mem" memory
offers "kwb run copy vectorized --metrics memory,occ" memory,occupancy
offers "kwb run saxpy.cu " -
offers "kwb check " saxpy.cu kernels
offers "kwb import " results.json
offers "kwb export --format " csv json nvbench t4
offers "kwb lesson elementwise-" elementwise-2-grid-stride
offers "kwb db " merge
offers "kwb history --family " copy giou
offers "kwb history --" --regressions --family --help
offers "kwb quality " -
offers "kwb check " saxpy.cu
for w in "${COMPREPLY[@]}"; do
  [ "$w" != notes.txt ] || { echo "check offered notes.txt"; failures=$((failures + 1)); }
done
if ((failures)); then
  echo "$failures completion(s) wrong"
  exit 1
fi
echo "completions as expected"
