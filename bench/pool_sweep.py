#!/usr/bin/env python3
"""Pooled sweep benchmark: the same sweep on one GPU, through one pooled worker, and on several.

Run on a host with two or more GPUs from the repository root, after building:
    python3 bench/pool_sweep.py --kwb build/ci/app/kwb --devices 0,1

Each GPU's copy ceiling is stored in a fresh history first (a short run on each), as a user's
history holds it after their first run, so the pooled workers measure none. Then, wall-clocked
around the whole command: the sweep in kwb's own process on the first GPU, the sweep through one
pooled worker on that GPU (`--devices FIRST`: what a worker costs), and the sweep shared among a
worker per GPU. The last lines printed are a Markdown table for docs/PERFORMANCE.md: wall times,
the ratio to the one-GPU time, points per GPU, and each run's median against the one-GPU run of
the same point.
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time

KERNEL = ["elementwise", "packed", "op=gelu", "dtype=f32", "n=2^26"]
AXES = ["-s", "block_size=64,128,256,512,1024", "-s", "waves=1,2,4,8"]


def kwb_json(kwb, db, gpu_option, args):
    """Runs kwb with --json and returns its answer and the command's wall time in seconds."""
    command = [kwb, "--db", db, "--json", *gpu_option, *args]
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited with {done.returncode}:\n{done.stderr}")
    return json.loads(done.stdout), seconds


def point_key(run):
    return tuple(sorted(run["launch"].items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/ci/app/kwb")
    parser.add_argument("--devices", default="0,1", help="GPU ordinals, the first alone too")
    parser.add_argument("--budget", type=float, default=0.3, help="kwb seconds per point")
    args = parser.parse_args()
    devices = [d.strip() for d in args.devices.split(",") if d.strip()]
    if len(devices) < 2:
        sys.exit("--devices names two GPUs or more")
    sweep = ["sweep", *KERNEL, *AXES, "--budget", str(args.budget)]

    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/bench.sqlite"
        for d in devices:
            kwb_json(args.kwb, db, ["--device", d],
                     ["run", *KERNEL[:-1], "n=2^20", "--budget", "0.05"])
        one, one_s = kwb_json(args.kwb, db, ["--device", devices[0]], sweep)
        pooled_one, pooled_one_s = kwb_json(args.kwb, db, ["--devices", devices[0]], sweep)
        pooled, pooled_s = kwb_json(args.kwb, db, ["--devices", ",".join(devices)], sweep)

    for answer in (one, pooled_one, pooled):
        failed = [r for r in answer["runs"] if r["status"] != "ok"]
        if failed:
            sys.exit(f"{len(failed)} runs failed: {failed[0].get('error', failed[0]['status'])}")
    reference = {point_key(r): r["time_s"]["median"] for r in one["runs"]}

    def against_one(answer):
        ratios = [r["time_s"]["median"] / reference[point_key(r)] for r in answer["runs"]]
        return (f"{min(ratios):.3f} to {max(ratios):.3f} "
                f"(median {statistics.median(ratios):.3f})")

    def per_gpu(answer):
        counts = {}
        for r in answer["runs"]:
            counts[r["device_ordinal"]] = counts.get(r["device_ordinal"], 0) + 1
        return " and ".join(str(counts[d]) for d in sorted(counts))

    device = one["device"]
    print(f"{device['name']}, driver {device['driver_version']}, GPUs {', '.join(devices)}")
    print(f"`kwb sweep {' '.join(KERNEL)} {' '.join(AXES)} --budget {args.budget}`, "
          f"{len(one['runs'])} points")
    print()
    print("| sweep | wall time | of one GPU's | points per GPU | run medians against one GPU's |")
    print("|---|---|---|---|---|")
    print(f"| one GPU, in kwb's process | {one_s:.1f} s | 1.00 | {len(one['runs'])} | - |")
    print(f"| one pooled worker, `--devices {devices[0]}` | {pooled_one_s:.1f} s | "
          f"{pooled_one_s / one_s:.2f} | {per_gpu(pooled_one)} | {against_one(pooled_one)} |")
    print(f"| {len(devices)} GPUs, a worker each, `--devices {','.join(devices)}` | "
          f"{pooled_s:.1f} s | {pooled_s / one_s:.2f} | {per_gpu(pooled)} | "
          f"{against_one(pooled)} |")


if __name__ == "__main__":
    main()
