#!/usr/bin/env python3
"""Elementwise benchmark: kwb's best configuration and naive variant against PyTorch and the copy
ceiling, for relu, gelu, gelu_tanh and mul in f32, f16 and bf16, in one run.

Run on a GPU host from the repository root, after building (preset sm90):
    python3 bench/elementwise_bench.py --kwb build/sm90/app/kwb

Every figure is the median of CUDA-event samples with L2 flushed before each sample, PyTorch's
timed the same way as kwb's (torch_timing.py); bandwidth counts every input read once and the
output written once. "copy" is kwb's copy/memcpy at the same
size and element type, so the ratio compares moving the same bytes per element stream. The last
lines printed are a Markdown table for docs/PERFORMANCE.md.
"""
import argparse
import json
import subprocess
import sys
import tempfile

from torch_timing import median_seconds

OPS = ["relu", "gelu", "gelu_tanh", "mul"]
DTYPES = ["f32", "f16", "bf16"]


def kwb(args, db, *cmd):
    out = subprocess.run([args.kwb, "--db", db, "--json", *cmd, "--budget", str(args.budget)],
                         check=True, capture_output=True, text=True).stdout
    runs = json.loads(out)
    for r in runs["runs"]:
        if r["status"] != "ok":
            sys.exit(f"kwb {cmd}: {r['error']}")
    return runs


def torch_time(op, dtype, n, samples):
    import torch
    import torch.nn.functional as F
    t = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[dtype]
    x = (torch.rand(n, device="cuda") * 2 - 1).to(t)
    y = (torch.rand(n, device="cuda") * 2 - 1).to(t)
    fn = {"relu": lambda: F.relu(x), "gelu": lambda: F.gelu(x),
          "gelu_tanh": lambda: F.gelu(x, approximate="tanh"), "mul": lambda: torch.mul(x, y)}[op]
    return median_seconds(fn, samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/sm90/app/kwb")
    parser.add_argument("--exps", default="20,24,26,28")
    parser.add_argument("--budget", type=float, default=0.15)
    parser.add_argument("--torch-samples", type=int, default=50)
    parser.add_argument("--configs", default="unroll=1,2,4",
                        help="sweep axis tried for the best configuration")
    parser.add_argument("--configs2", default="block_size=64,128,256,512,1024")
    parser.add_argument("--big-waves", default="auto,64", help="waves tried from 2^26 on")
    parser.add_argument("--variants", default="packed,packed_half2",
                        help="variants searched (packed_half2 only for 16-bit types)")
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--ops", default=",".join(OPS))
    args = parser.parse_args()
    exps = [int(e) for e in args.exps.split(",")]

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/bench.sqlite"
        for dtype in args.dtypes.split(","):
            sizes = ",".join(f"2^{e}" for e in exps)
            copy = kwb(args, db, "sweep", "copy", "memcpy", f"dtype={dtype}", "-s", f"n={sizes}")
            copy_bw = {int(r["problem"]["n"]): r["bandwidth"] for r in copy["runs"]}
            ceiling = copy["copy_ceiling"]["bandwidth"]
            for op in args.ops.split(","):
                variants = [v for v in args.variants.split(",")
                            if dtype != "f32" or v != "packed_half2"]
                for e in exps:
                    n = 1 << e
                    best = None
                    # Below 2^26 the grid covers n before 32 waves; above, a grid that covers n in
                    # one pass (64 waves) lets the block scheduler balance the SMs' work.
                    waves = args.big_waves.split(",") if e >= 26 else ["auto"]
                    for v in variants:
                        for w in waves:
                            res = kwb(args, db, "sweep", "elementwise", v, f"op={op}",
                                      f"dtype={dtype}", f"n={n}", f"waves={w}", "-s", args.configs,
                                      "-s", args.configs2)
                            for r in res["runs"]:
                                if best is None or r["bandwidth"] > best["bandwidth"]:
                                    best = r
                    naive = kwb(args, db, "run", "elementwise", "naive", f"op={op}",
                                f"dtype={dtype}", f"n={n}")["runs"][0]
                    bytes_moved = best["bytes"]
                    t = bytes_moved / torch_time(op, dtype, n, args.torch_samples)
                    shown = ("block_size", "unroll", "waves")
                    cfg = f"{best['variant']} " + " ".join(
                        f"{k}={v}" for k, v in best["launch"].items() if k in shown)
                    rows.append((op, dtype, e, best["bandwidth"], cfg, naive["bandwidth"], t,
                                 copy_bw[n], ceiling))
                    print(f"{op} {dtype} 2^{e}: best {best['bandwidth'] / 1e9:.0f} GB/s ({cfg}), "
                          f"naive {naive['bandwidth'] / 1e9:.0f}, torch {t / 1e9:.0f}, "
                          f"copy {copy_bw[n] / 1e9:.0f}", flush=True)

    print()
    print(f"copy ceiling {rows[0][8] / 1e9:.1f} GB/s")
    print("| op | dtype | n | best GB/s | best config | naive GB/s | torch GB/s | copy GB/s | "
          "best / copy | best / ceiling | best / torch |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for op, dtype, e, b, cfg, nv, t, c, ceil in rows:
        print(f"| {op} | {dtype} | 2^{e} | {b / 1e9:.0f} | {cfg} | {nv / 1e9:.0f} | {t / 1e9:.0f} | "
              f"{c / 1e9:.0f} | {b / c:.3f} | {b / ceil:.3f} | {b / t:.3f} |")


if __name__ == "__main__":
    main()
