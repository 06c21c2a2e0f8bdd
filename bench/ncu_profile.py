"""Nsight Compute run the way the benchmarks hold kwb against it: caches flushed and invalidated
before each kernel (`--cache-control all`), clocks left alone (`--clock-control none`)."""
import csv
import io
import subprocess


def profile(ncu, kernels, metrics, command, launch_count=None, stdin=None):
    """The metrics of each launch of `command` (its input `stdin`) whose kernel matches `kernels`
    (ncu's --kernel-name syntax), in base units, one dict per profiled launch."""
    cmd = [ncu, "--csv", "--page", "raw", "--print-units", "base", "--cache-control", "all",
           "--clock-control", "none", "--kernel-name", kernels, "--metrics", ",".join(metrics)]
    if launch_count:
        cmd += ["--launch-count", str(launch_count)]
    out = subprocess.run(cmd + command, input=stdin, check=True, capture_output=True,
                         text=True).stdout
    lines = [line for line in out.splitlines() if line.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if not rows:
        return []
    header, data = rows[0], rows[2:]  # the second row holds the units
    launches = [dict(zip(header, row)) for row in data]
    return [{m: float(launch[m].replace(",", "")) for m in metrics} for launch in launches]
