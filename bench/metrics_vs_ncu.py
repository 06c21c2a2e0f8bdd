#!/usr/bin/env python3
"""kwb's hardware metrics and kernel durations against Nsight Compute on the same kernels.

Run on a GPU host with ncu, from the repository root, after building (preset sm90):
    python3 bench/metrics_vs_ncu.py --kwb build/sm90/app/kwb

For each case kwb runs once with `--metrics memory,compute` (event timing, then the activity
trace, then the range profiler), and ncu profiles the same kernel in a `--verify-only` run
(`--cache-control all --clock-control none`, so caches are flushed and clocks left alone, as in
kwb). The last lines printed are Markdown tables for docs/PERFORMANCE.md.
"""
import argparse
import json
import subprocess
import sys
import tempfile

from ncu_profile import profile

METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum",
           "dram__throughput.avg.pct_of_peak_sustained_elapsed",
           "sm__throughput.avg.pct_of_peak_sustained_elapsed", "smsp__inst_executed.sum",
           "gpu__time_duration.sum"]
CASES = [
    ("copy", "vectorized", ["n=2^21"]),
    ("copy", "vectorized", ["n=2^26"]),
    ("copy", "vectorized", ["n=402653184"]),
    ("elementwise", "packed", ["op=relu", "dtype=f32", "n=2^21"]),
    ("elementwise", "packed", ["op=relu", "dtype=f32", "n=2^26"]),
    ("elementwise", "packed_half2", ["op=gelu", "dtype=f16", "n=2^26"]),
    ("elementwise", "packed", ["op=mul", "dtype=bf16", "n=2^26"]),
    ("elementwise", "packed", ["op=relu", "dtype=f32", "n=402653184"]),
]
KERNELS = "regex:copyKernel|packedKernel"


def kwb_run(args, db, family, variant, params):
    cmd = [args.kwb, "--db", db, "--json", "run", family, variant, *params,
           "--metrics", "memory,compute", "--budget", str(args.budget)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    run = json.loads(out.stdout)["runs"][0]
    if run.get("notice"):
        sys.exit(f"kwb: {run['notice']}")
    values = {m["name"]: m["value"] for m in run["metrics"] if "kernel" not in m}
    return run, values


def ncu_run(args, db, family, variant, params):
    launches = profile(args.ncu, KERNELS, METRICS,
                       [args.kwb, "--db", db, "run", family, variant, *params, "--verify-only"])
    if len(launches) != 1:
        sys.exit(f"ncu profiled {len(launches)} kernels for {family}/{variant} {params}")
    return launches[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/sm90/app/kwb")
    parser.add_argument("--ncu", default="ncu")
    parser.add_argument("--budget", type=float, default=0.3)
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/bench.sqlite"
        # The copy ceiling is measured once and stored here, so ncu sees only the case's kernel.
        subprocess.run([args.kwb, "--db", db, "run", "copy", "memcpy", "n=2^20"], check=True,
                       capture_output=True)
        for family, variant, params in CASES:
            run, ours = kwb_run(args, db, family, variant, params)
            theirs = ncu_run(args, db, family, variant, params)
            traced = next(m["value"] for m in run["metrics"]
                          if m["name"] == "activity.duration.median" and "kernel" not in m)
            name = f"{family}/{variant} " + " ".join(params)
            rows.append((name, ours, theirs, run["time_s"]["median"], traced))
            print(name, json.dumps({"kwb": ours, "ncu": theirs}), flush=True)

    print()
    print("| case | DRAM read kwb / ncu | ratio | DRAM write kwb / ncu | ratio | DRAM % kwb / ncu | "
          "ratio | SM % kwb / ncu | instructions kwb / ncu |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, ours, theirs, _, _ in rows:
        def pair(metric, scale, fmt):
            return (f"{fmt.format(ours[metric] * scale)} / {fmt.format(theirs[metric] * scale)}",
                    ours[metric] / theirs[metric] if theirs[metric] else float("nan"))
        read, read_ratio = pair("dram__bytes_read.sum", 1e-6, "{:.1f} MB")
        write, write_ratio = pair("dram__bytes_write.sum", 1e-6, "{:.1f} MB")
        dram, dram_ratio = pair("dram__throughput.avg.pct_of_peak_sustained_elapsed", 1, "{:.1f}")
        sm, _ = pair("sm__throughput.avg.pct_of_peak_sustained_elapsed", 1, "{:.1f}")
        inst, _ = pair("smsp__inst_executed.sum", 1, "{:.0f}")
        print(f"| {name} | {read} | {read_ratio:.3f} | {write} | {write_ratio:.3f} | {dram} | "
              f"{dram_ratio:.3f} | {sm} | {inst} |")
    print()
    print("| case | event median | activity median | kwb gpu__time_duration | "
          "ncu gpu__time_duration | activity / ncu |")
    print("|---|---|---|---|---|---|")
    for name, ours, theirs, event, traced in rows:
        ncu_s = theirs["gpu__time_duration.sum"] * 1e-9
        print(f"| {name} | {event * 1e6:.2f} us | {traced * 1e6:.2f} us | "
              f"{ours['gpu__time_duration.sum'] * 1e-3:.2f} us | {ncu_s * 1e6:.2f} us | "
              f"{traced / ncu_s:.3f} |")


if __name__ == "__main__":
    main()
