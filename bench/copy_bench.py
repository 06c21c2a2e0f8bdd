#!/usr/bin/env python3
"""Copy ceiling benchmark: kwb's memcpy and vectorized copy against PyTorch's copy_, one run.

Run on a GPU host from the repository root, after building (preset sm90):
    python3 bench/copy_bench.py --kwb build/sm90/app/kwb

Every figure is the median of CUDA-event samples with L2 flushed before each sample, PyTorch's
timed the same way as kwb's (torch_timing.py); bandwidth counts bytes read plus bytes written. The last lines printed are a Markdown table for
docs/PERFORMANCE.md.
"""
import argparse
import json
import subprocess
import sys
import tempfile

from torch_timing import median_seconds


def kwb_sweep(kwb, db, variant, exponents, budget):
    sizes = ",".join(f"2^{e}" for e in exponents)
    out = subprocess.run(
        [kwb, "--db", db, "--json", "sweep", "copy", variant, "-s", f"n={sizes}",
         "--budget", str(budget)],
        check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    runs = {int(r["problem"]["n"]): r for r in result["runs"]}
    for r in runs.values():
        if r["status"] != "ok":
            sys.exit(f"kwb {variant} failed: {r['error']}")
    return result, runs


def torch_copy(n, samples):
    import torch
    x = torch.rand(n, device="cuda", dtype=torch.float32) * 2 - 1
    y = torch.empty_like(x)
    seconds = median_seconds(lambda: y.copy_(x), samples)
    assert torch.equal(x, y), "torch copy_ produced a different tensor"
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/sm90/app/kwb")
    parser.add_argument("--min-exp", type=int, default=20)
    parser.add_argument("--max-exp", type=int, default=28)
    parser.add_argument("--budget", type=float, default=0.5, help="kwb seconds per point")
    parser.add_argument("--torch-samples", type=int, default=100)
    args = parser.parse_args()
    exponents = range(args.min_exp, args.max_exp + 1)

    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/bench.sqlite"
        result, memcpy = kwb_sweep(args.kwb, db, "memcpy", exponents, args.budget)
        _, vectorized = kwb_sweep(args.kwb, db, "vectorized", exponents, args.budget)

    device = result["device"]
    ceiling = result["copy_ceiling"]["bandwidth"]
    peak = device["peak_bandwidth"]
    print(f"{device['name']}, driver {device['driver_version']}, runtime {device['runtime_version']}")
    print(f"copy ceiling {ceiling / 1e9:.1f} GB/s ({result['copy_ceiling']['method']}), "
          f"theoretical peak {peak / 1e9:.1f} GB/s")
    print()
    header = ("| n (f32) | MiB moved | memcpy GB/s | vectorized GB/s | torch copy_ GB/s | "
              "vectorized / memcpy | torch / memcpy | vectorized / ceiling |")
    print(header)
    print("|---|---|---|---|---|---|---|---|")
    for e in exponents:
        n = 1 << e
        nbytes = 2 * 4 * n
        m = memcpy[n]["bandwidth"]
        v = vectorized[n]["bandwidth"]
        t = nbytes / torch_copy(n, args.torch_samples)
        print(f"| 2^{e} | {nbytes / 2**20:.0f} | {m / 1e9:.1f} | {v / 1e9:.1f} | {t / 1e9:.1f} | "
              f"{v / m:.3f} | {t / m:.3f} | {v / ceiling:.3f} |")


if __name__ == "__main__":
    main()
