#!/usr/bin/python3
"""A whole `kexp run` cell in a fresh process: what a user sees.

The hot-path benchmarks (bench/*_bench.cpp) time a Gram matrix or a fit again and again
in one process, into memory already touched. A user runs `kexp run` once: the process
starts, loads its plugins, generates the data, asks the operating system for a new
n × n matrix, computes K, fits and predicts. This script runs one such cell (friedman1,
d = 10, Gaussian kernel, kernel_ridge, one λ) in a fresh `kexp run` per measurement and
reads what the run wrote: the Gram time per entry of K (gram_seconds / n²), the fit, the
prediction (K(X, X*) included), the cell's peak memory and the wall time of the process.

With --versus-keep each run is followed by one with KEXP_OPENBLAS_CORETYPE=keep
(OpenBLAS's own choice of kernels), and the ratios are taken run by run.

    /usr/bin/python3 bench/whole_cell.py [--build build] [--runs 5] [--n 8000] [--versus-keep]

Prints, for each setting, the median and the range over the runs.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CONFIG = """experiment: whole-cell
seed: 1
timing: {{max_measurements: 1}}
dataset: {{plugin: friedman1, n: {n_total}, d: 10, noise: 0.5, test_fraction: {test_fraction}}}
kernels:
  - {{plugin: gaussian, sigma: 3.0}}
solvers:
  - {{plugin: kernel_ridge, lambda: 1e-3}}
"""


def one_run(kexp, config, out, env):
    start = time.perf_counter()
    done = subprocess.run([kexp, "run", config, "--quiet", "--force", "--out", out], env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"kexp run failed:\n{done.stderr}")
    with open(os.path.join(out, "results.csv"), newline="") as f:
        row = next(csv.DictReader(f))
    with open(os.path.join(out, "manifest.json")) as f:
        core = json.load(f)["environment"]["blas"]["core"]
    n = int(row["n_train"])
    return {
        "gram ns/entry": float(row["gram_seconds"]) / n / n * 1e9,
        "fit s": float(row["fit_seconds"]),
        "predict s": float(row["predict_seconds"]),
        "peak MB": float(row["peak_rss_bytes"]) / 1e6,
        "process s": wall,
        "core": core,
    }


def spread(values, digits):
    med = statistics.median(values)
    return f"{med:.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--n", type=int, default=8000, help="training points (1000 more for the test)")
    p.add_argument("--versus-keep", action="store_true",
                   help="alternate with runs under KEXP_OPENBLAS_CORETYPE=keep")
    args = p.parse_args()
    kexp = os.path.join(args.build, "bin", "kexp")
    if not os.path.exists(kexp):
        sys.exit(f"{kexp} not found: build kexp first (scripts/build.sh)")
    settings = {"default": dict(os.environ)}
    if args.versus_keep:
        settings["KEXP_OPENBLAS_CORETYPE=keep"] = dict(os.environ, KEXP_OPENBLAS_CORETYPE="keep")
    results = {name: [] for name in settings}
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "cell.yaml")
        n_total = args.n + 1000
        with open(config, "w") as f:
            f.write(CONFIG.format(n_total=n_total, test_fraction=1000 / n_total))
        for _ in range(args.runs):
            for name, env in settings.items():
                results[name].append(one_run(kexp, config, os.path.join(tmp, "out"), env))
    print(f"kexp run, one kernel_ridge cell: friedman1 n_train = {args.n}, 1000 test points, d = 10,"
          f" Gaussian kernel; {args.runs} fresh processes per setting, median (range)\n")
    keys = ["gram ns/entry", "fit s", "predict s", "peak MB", "process s"]
    digits = {"gram ns/entry": 2, "fit s": 3, "predict s": 3, "peak MB": 0, "process s": 2}
    print("| setting | OpenBLAS kernels | " + " | ".join(keys) + " |")
    print("|---|---|" + "---|" * len(keys))
    for name, runs in results.items():
        cores = "/".join(sorted({r["core"] for r in runs}))
        cells = " | ".join(spread([r[k] for r in runs], digits[k]) for k in keys)
        print(f"| {name} | {cores} | {cells} |")
    if args.versus_keep:
        base, keep = results["default"], results["KEXP_OPENBLAS_CORETYPE=keep"]
        print("\nkeep over default, run by run (above 1: the default is faster):")
        for k in ["gram ns/entry", "fit s", "process s"]:
            print(f"  {k}: {spread([b[k] / a[k] for a, b in zip(base, keep)], 2)}×")


if __name__ == "__main__":
    main()
