#!/usr/bin/env bash
# On a GPU host without Qt or SQLite headers: runs the test binaries of a build made elsewhere,
# compute-sanitizer memcheck over the GPU tests, records a worker session as a protocol fixture,
# and runs the copy benchmark. Logs go to $OUT (or ./gpu-logs). Usage: gpu-host-check.sh BUILD_DIR
# kwb needs libmuparser.so.2 (kernel files' expressions) and libcrypto.so.3 (their SHA-256): where
# the host lacks them (the ldd check below says so), carry their Debian packages (apt-get download
# libmuparser2v5 libssl3) with the Qt runtime's and unpack them there.
set -uo pipefail
build=${1:-build/sm90}
out=${OUT:-gpu-logs}
mkdir -p "$out"
cuda=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
export LD_LIBRARY_PATH="$cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}"
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$out/gpu.txt"
ldd "$build/app/kwb" | grep -i "not found" && { echo "missing libraries"; exit 1; }

echo "== tests"
for t in "$build"/tests/kwb_*_tests; do
  # GoogleTest binaries, and Qt Test ones (offscreen; they need the Qt runtime on the paths).
  if "$t" --help 2>&1 | grep -q gtest; then
    "$t" --gtest_brief=1 > "$out/$(basename "$t").log" 2>&1
  else
    QT_QPA_PLATFORM=offscreen "$t" > "$out/$(basename "$t").log" 2>&1
  fi
  rc=$?
  printf '%-24s rc=%s  %s\n' "$(basename "$t")" "$rc" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) |^Totals' "$out/$(basename "$t").log" | tr '\n' ' ')"
  [ $rc -eq 0 ] || { status=1; grep -B1 -A4 'Failure' "$out/$(basename "$t").log" | head -40; }
done

echo "== compute-sanitizer memcheck"
# Without the tests that trace through CUPTI for SASS (the sanitizer holds CUPTI itself) and the
# lesson runs, whose 33-launch GIoU chain the sanitizer slows past the timer's stream blocker.
for t in kwb_gpu_copy_tests kwb_gpu_elementwise_tests kwb_gpu_cli_tests kwb_gpu_device_tests \
         kwb_gpu_metrics_tests kwb_gpu_permute_tests kwb_gpu_giou_tests; do
  compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "$build/tests/$t" --gtest_brief=1 \
    --gtest_filter=-*WideIndices*:*BenchmarkShapes*:*GraphsReplay*:*Sass*:*Lessons* > "$out/memcheck-$t.log" 2>&1
  rc=$?
  printf '%-24s rc=%s  %s\n' "$t" "$rc" "$(grep -E 'ERROR SUMMARY' "$out/memcheck-$t.log" | tail -1)"
  [ $rc -eq 0 ] || status=1
done
# Kernel files: the runtime counts a kernel's parameters only by refusing the index past the
# last, an API error per launch the sanitizer would list; their memory errors are what counts.
compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
  "$build/tests/kwb_gpu_userkernel_tests" --gtest_brief=1 --gtest_filter='UserKernelGpu.*' \
  > "$out/memcheck-kwb_gpu_userkernel_tests.log" 2>&1
rc=$?
printf '%-24s rc=%s  %s\n' kwb_gpu_userkernel_tests "$rc" \
  "$(grep -E 'ERROR SUMMARY' "$out/memcheck-kwb_gpu_userkernel_tests.log" | tail -1)"
[ $rc -eq 0 ] || status=1

echo "== worker fixture"
# stdin stays open until the run is done: closing it cancels the running job.
(printf '%s\n' '{"v":2,"type":"run","id":"r1","family":"copy","variant":"vectorized","params":{"n":"2^24"},"options":{"budget_s":0.1,"max_samples":20}}' \
; sleep 30) \
  | "$build/app/kwb" --no-store worker > "$out/h100_run.jsonl"
wc -l "$out/h100_run.jsonl"
exit $status
