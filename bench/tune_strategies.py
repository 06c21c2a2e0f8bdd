#!/usr/bin/env python3
"""How many evaluations each tuning strategy needs to come within 2 % of the best configuration,
replayed against exhaustively recorded sweeps (no GPU needed).

    python3 bench/tune_strategies.py --kwb build/ci/app/kwb \\
        --db tests/fixtures/tune/h100-exhaustive.sqlite

For every sweep in the database and every strategy, `kwb tune --replay` runs with seeds 1..N
until the space is spent; the evaluation at which the best score so far first comes within 2 %
of the sweep's best is that seed's count. The last lines printed are a Markdown table of the
median count over the seeds, and its share of the valid points, for docs/PERFORMANCE.md.
"""
import argparse
import json
import shutil
import statistics
import subprocess
import tempfile

STRATEGIES = ["random", "annealing", "genetic", "model"]
WITHIN = 1.02


def replay(args, sweep, strategy, seed):
    cmd = [args.kwb, "--db", args.db, "--json", "tune", "--replay", str(sweep),
           "--strategy", strategy, "--search-seed", str(seed), "--confirm", "0"]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def sweeps(args):
    out = subprocess.run([args.kwb, "--db", args.db, "--json", "history", "--limit", "0"],
                         check=True, capture_output=True, text=True).stdout
    return sorted({run["sweep_id"] for run in json.loads(out) if run.get("sweep_id")})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/ci/app/kwb")
    parser.add_argument("--db", default="tests/fixtures/tune/h100-exhaustive.sqlite")
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()

    # On a copy: opening a history upgrades its schema, and the fixture stays as it was recorded.
    with tempfile.TemporaryDirectory() as tmp:
        args.db = shutil.copy(args.db, tmp)
        rows = []
        for sweep in sweeps(args):
            exhaustive = replay(args, sweep, "exhaustive", 1)
            best = min(e["score"] for e in exhaustive["evaluations"] if e["score"] is not None)
            kernel = exhaustive["kernel"]
            name = f"{kernel['family']}/{kernel['variant']}"
            axes = " x ".join(a["param"] for a in exhaustive["space"]["axes"])
            valid = exhaustive["space"]["valid"]
            for strategy in STRATEGIES:
                counts = []
                for seed in range(1, args.seeds + 1):
                    result = replay(args, sweep, strategy, seed)
                    n = next((i + 1 for i, e in enumerate(result["evaluations"])
                              if e["best_score"] is not None and e["best_score"] <= best * WITHIN),
                             None)
                    counts.append(n if n is not None else valid)
                median = statistics.median(counts)
                rows.append((name, axes, valid, strategy, median, min(counts), max(counts)))
                print(f"{name} {strategy}: {counts}", flush=True)

        print()
        print("| space | tuned | valid points | strategy | median evaluations to 2 % | of the space "
              "| fewest | most |")
        print("|---|---|---|---|---|---|---|---|")
        for name, axes, valid, strategy, median, low, high in rows:
            print(f"| {name} | {axes} | {valid} | {strategy} | {median:g} | {median / valid:.1%} | "
                  f"{low} | {high} |")


if __name__ == "__main__":
    main()
