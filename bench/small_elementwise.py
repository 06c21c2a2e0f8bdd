#!/usr/bin/env python3
"""Small elementwise sizes: kwb's default kernels against PyTorch's by kernel time and by event.

Run on a GPU host with ncu, from the repository root, after building (preset sm90):
    python3 bench/small_elementwise.py --kwb build/sm90/app/kwb

At these sizes (n = 150528, an ImageNet image, up to a few million elements) a cold event time
is mostly the flush's aftermath and the events themselves, so the kernels are compared by their
own durations, both measured by Nsight Compute the same way (`gpu__time_duration`, caches flushed
and invalidated before each kernel, clocks left alone; the median of the profiled launches): the
PyTorch profiler's concurrent-kernel records read about a microsecond short of it, CUPTI's
serialized ones (kwb's traced time) a little long. The event medians are printed beside them
(kwb's with its empty event pair subtracted, PyTorch's as torch_timing.py measures them). kwb runs
its default configuration of `packed` (f32, and cast) and `packed_half2` (16-bit; --half-variant),
and with --configs also the launches given there. Two Nsight Compute runs of one kernel differ by
up to 3 % at these sizes: with --rounds N each case profiles both kernels N times, alternating, and
compares the medians of the rounds (the table gives how many rounds kwb's kernel was the faster).
The last lines printed are a Markdown table for docs/PERFORMANCE.md; the exit status is 1 where a
default kernel is slower than PyTorch's.
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile

from ncu_profile import profile
from torch_timing import median_seconds

OPS = ["relu", "gelu", "gelu_tanh", "silu", "mul", "muladd", "cast"]
# What cast converts to: f32 to f16, 16-bit types to f32.
CAST_TO = {"f32": "f16", "f16": "f32", "bf16": "f32"}
DTYPES = ["f32", "f16", "bf16"]
SIZES = [150528, 602112, 1 << 20, 2408448]


def variant_of(args, op, dtype):
    return "packed" if dtype == "f32" or op == "cast" else args.half_variant


def problem(op, dtype, n):
    """kwb's problem parameters for the op."""
    params = [f"op={op}", f"dtype={dtype}", f"n={n}"]
    return params + [f"out_dtype={CAST_TO[dtype]}"] if op == "cast" else params


def kwb_times(args, db, op, dtype, n, launch):
    variant = variant_of(args, op, dtype)
    cmd = [args.kwb, "--db", db, "--json", "run", "elementwise", variant, *problem(op, dtype, n),
           *launch, "--budget", str(args.budget)]
    run = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    run = run["runs"][0]
    if run["status"] != "ok":
        sys.exit(f"kwb {op} {dtype} {n}: {run['error']}")
    traced = next(m["value"] for m in run["metrics"]
                  if m["name"] == "activity.duration.median" and "kernel" not in m)
    return run["time_s"]["median"], traced


def torch_op(op, dtype, n):
    import torch
    import torch.nn.functional as F
    t = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[dtype]
    x = (torch.rand(n, device="cuda") * 2 - 1).to(t)
    y = (torch.rand(n, device="cuda") * 2 - 1).to(t)
    z = (torch.rand(n, device="cuda") * 2 - 1).to(t)
    to = {"f32": torch.float32, "f16": torch.float16}[CAST_TO[dtype]]
    return {"relu": lambda: F.relu(x), "gelu": lambda: F.gelu(x),
            "gelu_tanh": lambda: F.gelu(x, approximate="tanh"), "silu": lambda: F.silu(x),
            "mul": lambda: torch.mul(x, y), "muladd": lambda: torch.addcmul(z, x, y),
            "cast": lambda: x.to(to)}[op]


TORCH_SCRIPT = """
import sys
import torch
sys.path.insert(0, "bench")
from small_elementwise import torch_op
fn = torch_op(sys.argv[1], sys.argv[2], int(sys.argv[3]))
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
for _ in range(int(sys.argv[4])):
    fn()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
"""


def median_duration(launches):
    return statistics.median(launch["gpu__time_duration.sum"] for launch in launches) * 1e-9


def torch_ncu_seconds(args, op, dtype, n):
    """Nsight Compute's duration of PyTorch's kernel, only the op's calls profiled."""
    launches = profile(args.ncu, "regex:elementwise_kernel", ["gpu__time_duration.sum"],
                       ["--profile-from-start", "off", sys.executable, "-c", TORCH_SCRIPT, op,
                        dtype, str(n), str(args.calls)])
    return median_duration(launches)


def kwb_ncu_seconds(args, db, op, dtype, n, launch):
    """Nsight Compute's duration of kwb's kernel over the first launches of a short run."""
    variant = variant_of(args, op, dtype)
    launches = profile(args.ncu, "regex:^packedKernel", ["gpu__time_duration.sum"],
                       [args.kwb, "--db", db, "run", "elementwise", variant,
                        *problem(op, dtype, n), *launch, "--budget", "0.01"],
                       launch_count=args.calls)
    return median_duration(launches[1:])  # not the checked call, the first of all


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/sm90/app/kwb")
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--ncu", default="ncu")
    parser.add_argument("--calls", type=int, default=15, help="launches ncu profiles per case")
    parser.add_argument("--sizes", default=",".join(str(n) for n in SIZES))
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--half-variant", default="packed_half2",
                        help="the variant timed for 16-bit types (packed: the math per element)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="times each case's kernels are profiled, alternating")
    parser.add_argument("--configs", action="append", default=[],
                        help="another launch to time, as 'unroll=1 block_size=128' (repeat)")
    args = parser.parse_args()
    launches = [[]] + [c.split() for c in args.configs]

    rows = []
    slower = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/bench.sqlite"
        for dtype in args.dtypes.split(","):
            for op in args.ops.split(","):
                for n in [int(s) for s in args.sizes.split(",")]:
                    fn = torch_op(op, dtype, n)
                    torch_event = median_seconds(fn, 200)
                    for launch in launches:
                        event, traced = kwb_times(args, db, op, dtype, n, launch)
                        kernels, torch_kernels = [], []
                        for _ in range(args.rounds):
                            torch_kernels.append(torch_ncu_seconds(args, op, dtype, n))
                            kernels.append(kwb_ncu_seconds(args, db, op, dtype, n, launch))
                        kernel = statistics.median(kernels)
                        torch_kernel = statistics.median(torch_kernels)
                        faster = sum(k <= t for k, t in zip(kernels, torch_kernels))
                        name = " ".join(launch) or "default"
                        rows.append((op, dtype, n, name, kernel, torch_kernel, faster, traced,
                                     event, torch_event))
                        if not launch and kernel > torch_kernel:
                            slower += 1
                        print(f"{op} {dtype} {n} {name}: kernel {kernel * 1e6:.2f} us against "
                              f"{torch_kernel * 1e6:.2f} us (faster in {faster} of {args.rounds} "
                              f"rounds; traced {traced * 1e6:.2f}), event {event * 1e6:.2f} "
                              f"against {torch_event * 1e6:.2f} us", flush=True)

    print()
    print("| op | dtype | n | launch | kwb kernel (ncu) | PyTorch kernel (ncu) | PyTorch / kwb | "
          "rounds kwb faster | kwb traced | kwb event | PyTorch event |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for op, dtype, n, name, kernel, tk, faster, traced, event, te in rows:
        print(f"| {op} | {dtype} | {n} | {name} | {kernel * 1e6:.2f} us | {tk * 1e6:.2f} us | "
              f"{tk / kernel:.3f} | {faster} of {args.rounds} | {traced * 1e6:.2f} us | "
              f"{event * 1e6:.2f} us | {te * 1e6:.2f} us |")
    sys.exit(1 if slower else 0)


if __name__ == "__main__":
    main()
