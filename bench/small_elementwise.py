#!/usr/bin/env python3
"""Small elementwise sizes: kwb's default kernels against PyTorch's by kernel time and by event.

Run on a GPU host with ncu, from the repository root, after building (preset sm90):
    python3 bench/small_elementwise.py --build build/sm90

At these sizes (n = 150528, an ImageNet image, up to a few million elements) a cold event time
is mostly the flush's aftermath and the events themselves, so the kernels are compared by their
own durations, both measured by Nsight Compute the same way (`gpu__time_duration`, caches flushed
and invalidated before each kernel, clocks left alone; the median of the profiled launches): the
PyTorch profiler's concurrent-kernel records read about a microsecond short of it, CUPTI's
serialized ones (kwb's traced time) a little long. A round profiles every case of each side in
one process (kwb-profiled-calls for kwb, one Python process for PyTorch), so Nsight Compute starts
twice a round, not twice a case. Two runs of one kernel differ by up to 3 % at these sizes: with
--rounds N the rounds alternate between the sides and each case compares the medians of its
rounds (the table gives in how many rounds kwb's kernel was at PyTorch's time or faster).

kwb runs its default configuration of `packed` (f32, and cast) and `packed_half2` (16-bit;
--half-variant), and with --configs also the launches given there. With --events the table also
gives the event medians (kwb's from `kwb run`, its empty event pair subtracted; PyTorch's as
torch_timing.py measures them) and kwb's CUPTI traced time, at about a second a case. The last
lines printed are a Markdown table for docs/PERFORMANCE.md and a summary; the exit status is 1
where a default kernel is slower than PyTorch's.
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile

from ncu_profile import profile

OPS = ["relu", "gelu", "gelu_tanh", "silu", "mul", "muladd", "cast"]
# What cast converts to: f32 to f16, 16-bit types to f32.
CAST_TO = {"f32": "f16", "f16": "f32", "bf16": "f32"}
DTYPES = ["f32", "f16", "bf16"]
SIZES = [150528, 602112, 1 << 20, 2408448, 3244032, 4128768]


def variant_of(args, op, dtype):
    return "packed" if dtype == "f32" or op == "cast" else args.half_variant


def problem(op, dtype, n):
    """kwb's problem parameters for the op."""
    params = [f"op={op}", f"dtype={dtype}", f"n={n}"]
    return params + [f"out_dtype={CAST_TO[dtype]}"] if op == "cast" else params


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


# Reads "op dtype n" lines on stdin; each case's calls between profiler start and stop.
TORCH_SCRIPT = """
import sys
import torch
sys.path.insert(0, "bench")
from small_elementwise import torch_op
for case in sys.stdin.read().splitlines():
    op, dtype, n = case.split()
    fn = torch_op(op, dtype, int(n))
    fn()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    for _ in range(int(sys.argv[1])):
        fn()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
"""


def case_medians(args, kernels, command, stdin, cases):
    """Nsight Compute's median kernel duration of each case's profiled calls, in seconds."""
    launches = profile(args.ncu, kernels, ["gpu__time_duration.sum"],
                       ["--profile-from-start", "off", *command], stdin=stdin)
    if len(launches) != cases * args.calls:
        sys.exit(f"{command[0]}: {len(launches)} kernels profiled, not {cases} cases x "
                 f"{args.calls} calls")
    times = [launch["gpu__time_duration.sum"] * 1e-9 for launch in launches]
    return [statistics.median(times[i * args.calls:(i + 1) * args.calls]) for i in range(cases)]


def kwb_events(args, db, op, dtype, n, launch):
    """kwb run's event median and CUPTI traced median of the case."""
    cmd = [f"{args.build}/app/kwb", "--db", db, "--json", "run", "elementwise",
           variant_of(args, op, dtype), *problem(op, dtype, n), *launch, "--budget", "0.2"]
    run = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    run = run["runs"][0]
    if run["status"] != "ok":
        sys.exit(f"kwb {op} {dtype} {n}: {run['error']}")
    traced = next(m["value"] for m in run["metrics"]
                  if m["name"] == "activity.duration.median" and "kernel" not in m)
    return run["time_s"]["median"], traced


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build/sm90", help="kwb's build folder")
    parser.add_argument("--ncu", default="ncu")
    parser.add_argument("--calls", type=int, default=7, help="launches profiled per case")
    parser.add_argument("--sizes", default=",".join(str(n) for n in SIZES))
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--half-variant", default="packed_half2",
                        help="the variant timed for 16-bit types (packed: the math per element)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="times each case's kernels are profiled, the sides alternating")
    parser.add_argument("--configs", action="append", default=[],
                        help="another launch to time, as 'unroll=1 block_size=128' (repeat)")
    parser.add_argument("--events", action="store_true",
                        help="also event and traced times (kwb run, torch_timing.py)")
    args = parser.parse_args()
    launches = [[]] + [c.split() for c in args.configs]
    cases = [(op, dtype, n) for dtype in args.dtypes.split(",") for op in args.ops.split(",")
             for n in [int(s) for s in args.sizes.split(",")]]
    kwb_cases = [(case, launch) for case in cases for launch in launches]
    torch_stdin = "".join(f"{op} {dtype} {n}\n" for op, dtype, n in cases)
    kwb_stdin = "".join(
        " ".join(["elementwise", variant_of(args, op, dtype), *problem(op, dtype, n), *launch]) +
        "\n" for (op, dtype, n), launch in kwb_cases)

    torch_rounds, kwb_rounds = [], []
    for r in range(args.rounds):
        torch_rounds.append(case_medians(args, "regex:elementwise_kernel",
                                         [sys.executable, "-c", TORCH_SCRIPT, str(args.calls)],
                                         torch_stdin, len(cases)))
        kwb_rounds.append(case_medians(
            args, "regex:^packedKernel",
            [f"{args.build}/bench/profiledcalls/kwb-profiled-calls", "--calls", str(args.calls)],
            kwb_stdin, len(kwb_cases)))
        print(f"round {r + 1} of {args.rounds} profiled", file=sys.stderr, flush=True)

    rows, ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (case, launch) in enumerate(kwb_cases):
            op, dtype, n = case
            t = k // len(launches)  # kwb_cases holds each case's launches in turn
            kernel = statistics.median(r[k] for r in kwb_rounds)
            torch_kernel = statistics.median(r[t] for r in torch_rounds)
            faster = sum(kr[k] <= tr[t] for kr, tr in zip(kwb_rounds, torch_rounds))
            events = ()
            if args.events:
                from torch_timing import median_seconds
                event, traced = kwb_events(args, f"{tmp}/bench.sqlite", op, dtype, n, launch)
                events = (traced, event, median_seconds(torch_op(op, dtype, n), 200))
            if not launch:
                ratios.append(torch_kernel / kernel)
            rows.append((op, dtype, n, " ".join(launch) or "default", kernel, torch_kernel,
                         faster, events))

    print()
    print("| op | dtype | n | launch | kwb kernel (ncu) | PyTorch kernel (ncu) | PyTorch / kwb | "
          "rounds kwb at PyTorch's or faster |" +
          (" kwb traced | kwb event | PyTorch event |" if args.events else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|---|---|" if args.events else ""))
    for op, dtype, n, name, kernel, tk, faster, events in rows:
        print(f"| {op} | {dtype} | {n} | {name} | {kernel * 1e6:.3f} us | {tk * 1e6:.3f} us | "
              f"{tk / kernel:.3f} | {faster} of {args.rounds} |" +
              "".join(f" {e * 1e6:.2f} us |" for e in events))
    slower = sum(ratio < 1 for ratio in ratios)
    print(f"\ndefault launches: {len(ratios)} cases, PyTorch / kwb median "
          f"{statistics.median(ratios):.3f}, lowest {min(ratios):.3f}; under PyTorch: {slower}")
    sys.exit(1 if slower else 0)


if __name__ == "__main__":
    main()
