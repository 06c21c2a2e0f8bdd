#!/usr/bin/env python3
"""Permute benchmark: kwb's auto choice and every variant against PyTorch's
x.permute(p).contiguous() and the copy ceiling, in f32 and f16 (u8 with --dtypes), in one run.

Run on a GPU host from the repository root, after building (preset sm90):
    python3 bench/permute_bench.py --kwb build/sm90/app/kwb

Every figure is the median of CUDA-event samples with L2 flushed before each sample, PyTorch's
timed the same way (torch_timing.py); bandwidth counts the tensor read once and written once.
"copy" is kwb's copy/memcpy of the same bytes. --odd runs cases of odd extents and short sides
instead, whose rows start on no word in 1- and 2-byte elements. The last lines printed are a Markdown table for
docs/PERFORMANCE.md.
"""
import argparse
import json
import math
import subprocess
import tempfile

from torch_timing import median_seconds

CASES = [((32, 128, 16, 64), (0, 2, 1, 3)), ((64, 512, 512), (0, 2, 1)),
         ((8192, 8192), (1, 0)), ((64, 64, 128, 128), (2, 3, 0, 1)),
         ((16, 3, 512, 512), (0, 2, 3, 1)), ((16, 512, 512, 3), (0, 3, 1, 2)),
         ((3, 4096, 4096), (2, 1, 0)), ((128, 64, 64, 8), (0, 3, 1, 2))]
# Odd extents and short sides: rows that start on no word, for 1- and 2-byte elements.
ODD_CASES = [((8191, 8191), (1, 0)), ((64, 511, 513), (0, 2, 1)), ((3, 4095, 4097), (2, 1, 0)),
             ((16, 512, 512, 3), (0, 3, 1, 2)), ((16, 3, 512, 512), (0, 2, 3, 1)),
             ((5, 273913, 7, 7), (2, 3, 1, 0)), ((24, 287, 2, 2435, 8), (1, 3, 0, 4, 2)),
             ((78, 96, 3, 5974), (1, 0, 3, 2))]
VARIANTS = ["auto", "naive", "simplified", "movement", "tiled", "tiled_half2", "tiled_wide", "narrow",
            "general", "lines"]


def text(items):
    return ",".join(str(i) for i in items)


def kwb(args, db, *cmd):
    """The run's JSON, or None where kwb rejects the parameters (a variant that does not apply)."""
    out = subprocess.run([args.kwb, "--db", db, "--json", *cmd, "--budget", str(args.budget)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None
    run = json.loads(out.stdout)["runs"][0]
    return run if run["status"] == "ok" else None


def torch_bandwidth(shape, perm, dtype, samples):
    import torch
    t = {"f32": torch.float32, "f16": torch.float16, "u8": torch.uint8}[dtype]
    x = torch.rand(shape, device="cuda").to(t)
    seconds = median_seconds(lambda: x.permute(perm).contiguous(), samples)
    return 2 * x.numel() * x.element_size() / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/sm90/app/kwb")
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--torch-samples", type=int, default=100)
    parser.add_argument("--dtypes", default="f32,f16")
    parser.add_argument("--odd", action="store_true", help="the odd-extent cases instead")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/bench.sqlite"
        for dtype in args.dtypes.split(","):
            for shape, perm in ODD_CASES if args.odd else CASES:
                n = math.prod(shape)
                copy = kwb(args, db, "run", "copy", "memcpy", f"dtype={dtype}", f"n={n}")
                bw = {}
                chosen = ""
                for v in VARIANTS:
                    run = kwb(args, db, "run", "permute", v, f"shape={text(shape)}",
                              f"perm={text(perm)}", f"dtype={dtype}")
                    bw[v] = run["bandwidth"] if run else None
                    if v == "auto" and run:
                        chosen = run["derived"].get("chosen", "")
                torch_bw = torch_bandwidth(shape, perm, dtype, args.torch_samples)
                rows.append((shape, perm, dtype, bw, chosen, torch_bw, copy["bandwidth"]))
                print(f"{shape} {perm} {dtype}: auto {bw['auto'] / 1e9:.0f} GB/s ({chosen}), "
                      f"torch {torch_bw / 1e9:.0f}, copy {copy['bandwidth'] / 1e9:.0f}", flush=True)

    def gbs(value):
        return f"{value / 1e9:.0f}" if value else "-"

    print()
    others = VARIANTS[1:]
    print("| shape | perm | dtype | auto (chose) | " + " | ".join(others) +
          " | torch | copy | auto / copy | auto / torch |")
    print("|---" * (len(others) + 8) + "|")
    for shape, perm, dtype, bw, chosen, t, c in rows:
        print(f"| {list(shape)} | {perm} | {dtype} | {gbs(bw['auto'])} ({chosen}) | " +
              " | ".join(gbs(bw[v]) for v in others) +
              f" | {gbs(t)} | {gbs(c)} | {bw['auto'] / c:.3f} | {bw['auto'] / t:.3f} |")

if __name__ == "__main__":
    main()
