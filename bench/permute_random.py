#!/usr/bin/env python3
"""Random permutations: kwb's permute/auto against the copy ceiling and PyTorch's
x.permute(p).contiguous(), over seeded random shapes, permutations and element sizes.

Run on a GPU host from the repository root, after building (preset sm90):
    python3 bench/permute_random.py --kwb build/sm90/app/kwb --cases 200 --seed 1

Each case draws a rank (2 to 6), sizes (log-uniform, odd ones included, the last one filling the
tensor to one of the target sizes: 4, 16, 64, 128 or 256 MiB), a permutation that is not a copy
after simplification, and an element size (u8, f16, f32, f64). kwb times it cold (median of CUDA
events, empty pairs subtracted); PyTorch is timed the same way (torch_timing.py); the ceiling is
kwb's copy/memcpy of the same bytes. --first and --count run a slice of the cases (the draws stay
those of the whole seeded run), so that the whole can be spread over several calls; --json FILE
keeps the rows, and --summarize FILE... prints the tables of rows kept before.

For a quicker look where the bound holds: --large-only runs only the cases drawn for 64 MiB and
more, --dtypes only those of the element sizes named, --no-torch leaves PyTorch out (its table
then says so), and --forced F also runs every other kernel that takes a case kwb moves at less
than F of the ceiling, and lists those where one is faster than auto's choice (a row's "forced"
keeps each kernel's GB/s); --kernels names the kernels it forces, and --only runs the cases of
these indices alone (their draws those of the whole seeded run), to look again at a few.
"""
import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile

TARGETS_MIB = [4, 16, 64, 128, 256]
DTYPES = {"u8": 1, "f16": 2, "f32": 4, "f64": 8}
KERNELS = ["general", "movement", "packed", "tiled", "tiled_half2", "tiled_wide", "narrow",
           "planes", "lines"]
LARGE_MIB = 64  # the bound's tensors: those drawn for 64 MiB and more (the last size rounds down)


def simplify(shape, perm):
    """The permutation as kwb simplifies it: size-1 dimensions dropped, neighbours merged."""
    kept = [d for d in range(len(shape)) if shape[d] != 1]
    renumber = {d: i for i, d in enumerate(kept)}
    p = [renumber[a] for a in perm if a in renumber]
    groups = []
    for a in p:
        if groups and groups[-1][-1] + 1 == a:
            groups[-1].append(a)
        else:
            groups.append([a])
    order = sorted(range(len(groups)), key=lambda g: groups[g][0])
    index = {g: i for i, g in enumerate(order)}
    return [math.prod(shape[kept[a]] for a in groups[g]) for g in order], [index[g] for g in range(len(groups))]


def draw(rng):
    while True:
        dtype = rng.choice(list(DTYPES))
        target = rng.choice(TARGETS_MIB) << 20
        elements = target // DTYPES[dtype]
        rank = rng.randint(2, 6)
        shape = []
        for _ in range(rank - 1):
            size = int(round(2 ** rng.uniform(0.6, 10)))
            if rng.random() < 0.3:
                size = rng.choice([3, 5, 7, 12, 24, 96, 100, 1000])
            shape.append(max(size, 1))
        last = elements // math.prod(shape)
        if last < 1:
            continue
        shape.append(last)
        rng.shuffle(shape)
        perm = list(range(rank))
        rng.shuffle(perm)
        s_shape, s_perm = simplify(shape, perm)
        if len(s_shape) < 2:
            continue  # a copy
        return shape, perm, dtype, target >> 20


def text(items):
    return ",".join(str(i) for i in items)


EXIT_BAD_INPUT = 2  # kwb's exit code for a parameter it refuses (docs/cli.md)


def kwb_run(args, db, *params, refused_ok=False):
    """The run's JSON; None where refused_ok and kwb refuses the parameters (a kernel that does not
    take the case)."""
    out = subprocess.run([args.kwb, "--db", db, "--json", "run", *params, "--budget",
                          str(args.budget)], capture_output=True, text=True)
    if refused_ok and out.returncode == EXIT_BAD_INPUT:
        return None
    if out.returncode != 0:
        sys.exit(f"kwb {' '.join(params)}: {out.stderr.strip()}")
    run = json.loads(out.stdout)["runs"][0]
    if run["status"] != "ok":
        sys.exit(f"kwb {' '.join(params)}: {run['error']}")
    return run


def forced(args, db, case, chosen):
    """GB/s of every other kernel named that takes the case."""
    shape, perm, dtype = case
    speeds = {}
    for kernel in args.kernels.split(","):
        if kernel == chosen:
            continue
        run = kwb_run(args, db, "permute", kernel, f"shape={text(shape)}", f"perm={text(perm)}",
                      f"dtype={dtype}", refused_ok=True)
        if run:
            speeds[kernel] = run["bandwidth"] / 1e9
    return speeds


def torch_seconds(shape, perm, dtype, samples):
    import torch
    from torch_timing import median_seconds
    t = {"u8": torch.uint8, "f16": torch.float16, "f32": torch.float32, "f64": torch.float64}
    x = torch.empty(shape, dtype=t[dtype], device="cuda")
    seconds = median_seconds(lambda: x.permute(perm).contiguous(), samples)
    del x
    return seconds


def quantiles(values):
    v = sorted(values)
    pick = lambda q: v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))]
    return f"{v[0]:.3f} | {pick(0.1):.3f} | {statistics.median(v):.3f} | {pick(0.9):.3f} | {v[-1]:.3f}"


def gbs(value):
    return f"{value:.0f}" if value else "-"


def ratio(kwb, torch):
    return f"{kwb / torch:.3f}" if torch else "-"


def summarize(rows):
    large = [r for r in rows if r["target_mib"] >= LARGE_MIB]
    print()
    print("| cases | of the copy ceiling: min | p10 | median | p90 | max | at 85 % or more |")
    print("|---|---|---|---|---|---|---|")
    for label, group in (("all", rows), ("64 MiB and more", large)):
        if group:
            fractions = [r["kwb_gbs"] / r["copy_gbs"] for r in group]
            print(f"| {label} ({len(group)}) | {quantiles(fractions)} | "
                  f"{sum(f >= 0.85 for f in fractions)} |")
    # The bound holds in every element size: where the large cases fall short, by size and kernel.
    print()
    print(f"| {LARGE_MIB} MiB and more, by | cases | of the copy ceiling: median | at 85 % or more |")
    print("|---|---|---|---|")
    for key in ("dtype", "chosen"):
        groups = {}
        for r in large:
            groups.setdefault(r[key], []).append(r["kwb_gbs"] / r["copy_gbs"])
        order = sorted(groups, key=lambda g: DTYPES[g]) if key == "dtype" else sorted(groups)
        for label in order:
            fractions = groups[label]
            print(f"| {label} | {len(fractions)} | {statistics.median(fractions):.3f} | "
                  f"{sum(f >= 0.85 for f in fractions)} |")
    print()
    if all(r["torch_gbs"] is None for r in rows):
        print("PyTorch: not run.")
    else:
        print("| cases | kwb / PyTorch: min | p10 | median | p90 | max | at PyTorch's or faster |")
        print("|---|---|---|---|---|---|---|")
        by_kernel = {}
        for r in rows:
            by_kernel.setdefault(r["chosen"], []).append(r)
        for label, group in [("all", rows)] + sorted(by_kernel.items()):
            ratios = [r["kwb_gbs"] / r["torch_gbs"] for r in group if r["torch_gbs"]]
            if ratios:
                print(f"| {label} ({len(group)}) | {quantiles(ratios)} | "
                      f"{sum(x >= 1.0 for x in ratios)} |")
    print()
    print("The ten furthest from the ceiling:")
    print()
    print("| shape | perm | dtype | MiB | chose | simplified | kwb GB/s | copy GB/s | of copy | "
          "PyTorch GB/s | kwb / PyTorch |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: r["kwb_gbs"] / r["copy_gbs"])[:10]:
        print(f"| {text(r['shape'])} | {text(r['perm'])} | {r['dtype']} | {r['bytes'] / 2**20:.0f} | "
              f"{r['chosen']} | {r['simplified']} | {r['kwb_gbs']:.0f} | {r['copy_gbs']:.0f} | "
              f"{r['kwb_gbs'] / r['copy_gbs']:.3f} | {gbs(r['torch_gbs'])} | "
              f"{ratio(r['kwb_gbs'], r['torch_gbs'])} |")
    tried = [r for r in rows if r.get("forced") is not None]
    if tried:
        print()
        print(f"The other kernels forced (--kernels) on the {len(tried)} cases under --forced; those "
              "where one is faster than auto's choice by 3 % or more:")
        print()
        print("| shape | perm | dtype | auto | GB/s | faster | GB/s | ratio | auto of copy |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in tried:
            best = max(r["forced"].items(), key=lambda kv: kv[1], default=None)
            if best and best[1] >= 1.03 * r["kwb_gbs"]:
                print(f"| {text(r['shape'])} | {text(r['perm'])} | {r['dtype']} | {r['chosen']} | "
                      f"{r['kwb_gbs']:.0f} | {best[0]} | {best[1]:.0f} | "
                      f"{best[1] / r['kwb_gbs']:.3f} | {r['kwb_gbs'] / r['copy_gbs']:.3f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/sm90/app/kwb")
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=None)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--torch-samples", type=int, default=30)
    parser.add_argument("--large-only", action="store_true",
                        help=f"only the cases drawn for {LARGE_MIB} MiB and more")
    parser.add_argument("--dtypes", default=",".join(DTYPES),
                        help="only the cases drawn in these element sizes (comma-separated)")
    parser.add_argument("--no-torch", action="store_true", help="leave PyTorch out")
    parser.add_argument("--forced", type=float, metavar="F",
                        help="also run every other kernel on cases under F of the ceiling")
    parser.add_argument("--kernels", default=",".join(KERNELS),
                        help="the kernels --forced runs (comma-separated)")
    parser.add_argument("--only", help="only the cases of these indices (comma-separated)")
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--summarize", nargs="+", help="print the tables of rows kept before")
    args = parser.parse_args()
    if args.summarize:
        rows = [row for name in args.summarize for row in json.load(open(name))]
        summarize(rows)
        return

    dtypes = args.dtypes.split(",")
    if unknown := set(dtypes) - set(DTYPES):
        sys.exit(f"--dtypes: unknown {', '.join(sorted(unknown))}")
    if unknown := set(args.kernels.split(",")) - set(KERNELS):
        sys.exit(f"--kernels: unknown {', '.join(sorted(unknown))}")
    only = {int(k) for k in args.only.split(",")} if args.only else None
    rng = random.Random(args.seed)
    cases = [draw(rng) for _ in range(args.cases)]
    last = args.cases if args.count is None else min(args.cases, args.first + args.count)
    rows = []
    copies = {}
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/bench.sqlite"
        for k in range(args.first, last):
            shape, perm, dtype, target_mib = cases[k]
            if (args.large_only and target_mib < LARGE_MIB) or dtype not in dtypes or \
                    (only is not None and k not in only):
                continue
            nbytes = math.prod(shape) * DTYPES[dtype]
            if nbytes not in copies:
                copies[nbytes] = kwb_run(args, db, "copy", "memcpy", "dtype=u8", f"n={nbytes}")["bandwidth"]
            run = kwb_run(args, db, "permute", "auto", f"shape={text(shape)}", f"perm={text(perm)}",
                          f"dtype={dtype}")
            torch_s = None if args.no_torch else torch_seconds(shape, perm, dtype,
                                                                   args.torch_samples)
            row = {"case": k, "shape": shape, "perm": perm, "dtype": dtype, "bytes": nbytes,
                   "target_mib": target_mib,
                   "chosen": run["derived"].get("chosen", ""),
                   # As the bench simplifies it: kernels report their own forms, or none
                   "simplified": " / ".join(text(x) for x in simplify(shape, perm)),
                   "kwb_gbs": run["bandwidth"] / 1e9, "copy_gbs": copies[nbytes] / 1e9,
                   # None where PyTorch was not run, or its copy read no longer than an empty
                   # event pair
                   "torch_gbs": 2 * nbytes / torch_s / 1e9 if torch_s else None}
            if args.forced and row["kwb_gbs"] < args.forced * row["copy_gbs"]:
                row["forced"] = forced(args, db, (shape, perm, dtype), row["chosen"])
            rows.append(row)
            print(f"{k}: {text(shape)} / {text(perm)} {dtype} {nbytes / 2**20:.0f} MiB: "
                  f"{row['chosen']} {row['kwb_gbs']:.0f} GB/s, copy {row['copy_gbs']:.0f}, "
                  f"torch {gbs(row['torch_gbs'])}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)
    summarize(rows)


if __name__ == "__main__":
    main()
