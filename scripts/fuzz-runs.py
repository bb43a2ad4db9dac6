#!/usr/bin/env python3
"""Runs kexp end to end on mutated experiment files and data files, and checks each run.

The libFuzzer targets (scripts/fuzz.sh) reach the config parser, the planner and the data
readers in-process; this script runs the whole program, so that what a cell computes is
checked too. Each mutant is a seed config or data file with a few values replaced by
hostile ones (0, negative, 1e308, 1e-320, inf, nan, huge integers, other plugin names,
keys dropped or repeated, bytes flipped). A run passes when kexp

  - exits with 0, 1 (cells failed), 2 (bad input, no folder written) or 3, within the
    time limit, never by a signal;
  - wrote no row with status ok whose accuracy figures are not finite;
  - wrote results.csv and results.jsonl with the same runs, and left no temporary file.

  scripts/fuzz-runs.py --kexp build/bin/kexp --configs 300 --data 300 [--seed 1]

Prints a line per kind and every failing mutant, and exits 1 when there is one.
"""
import argparse
import csv
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

SEED_CONFIGS = [
    """experiment: a
seed: 1
dataset: {plugin: cubic, n: 60, d: 2, noise: 0.1}
kernels:
  - plugin: polynomial
    degree: [1, 2]
    c: 1.0
  - plugin: gaussian
    sigma: [0.5, 2.0]
solvers:
  - plugin: kernel_ridge
    lambda: 0.01
  - plugin: primal_ridge
    lambda: 0.01
""",
    """experiment: b
dataset: {plugin: sine, n: 50, d: 3}
kernels:
  - plugin: laplacian
    sigma: 1.0
  - plugin: linear
solvers:
  - plugin: dual_gd
    iterations: 50
  - plugin: gp_regression
    noise: 0.1
  - plugin: nadaraya_watson
""",
    """experiment: c
repeats: 2
dataset: {plugin: circles, n: 60, noise: 0.1}
kernels:
  - sum:
      - plugin: gaussian
        sigma: 0.5
      - plugin: cubic
  - plugin: gaussian
    map: rff
    features: 64
solvers:
  - plugin: kernel_ridge_classifier
    lambda: 0.1
  - plugin: primal_gd
    iterations: 20
""",
    """experiment: d
dataset: {plugin: friedman1, n: 60, d: 5}
kernels:
  - plugin: sigmoid
    a: 0.1
    b: 0.0
  - plugin: gaussian
    map: taylor
    order: 3
solvers:
  - plugin: kernel_ridge
    lambda: {logspace: [-3, 0, 3]}
  - plugin: primal_ridge
""",
]

HOSTILE_NUMBERS = ["0", "-1", "1e308", "-1e308", "1e-320", "inf", "-inf", ".nan", "nan",
                   "4294967297", "2147483648", "-9223372036854775809", "1e309", "0.5",
                   "1000", "3", "{linspace: [0, 1e308, 4]}", "{logspace: [300, 310, 3]}",
                   "[1, 1, 1]", "''", "[]", "{}", "~"]
HOSTILE_WORDS = ["gaussian", "rbf", "kernel_ridge", "primal_ridge", "csv", "sum", "product",
                 "scale", "zip", "plugin", "../..", "\"a\\u0000b\"", "\"\\xff\"", "*x", "&x"]

SEED_CSV = "a,b,y\n" + "".join(f"{i % 7},{(i * 3) % 5},{i % 4}\n" for i in range(40))
SEED_LIBSVM = "".join(f"{1 if i % 2 else -1} 1:{i % 5} 3:{i % 3}\n" for i in range(40))
HOSTILE_FIELDS = ["1e308", "-1e308", "1e-320", "nan", "inf", "", "x", "1,2", "\"", "0x10",
                  "99999999999999999999", "1e400", "-0", " 1 ", "\t", "\xff", "2147483648:1",
                  "10000001:1", "0:1", "-1:2"]


def mutate_config(rng, text):
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        line = lines[i]
        op = rng.random()
        if ":" in line and op < 0.55:
            key, _, value = line.partition(":")
            if value.strip() and not value.strip().startswith("{plugin"):
                pool = HOSTILE_NUMBERS if rng.random() < 0.7 else HOSTILE_WORDS
                lines[i] = f"{key}: {rng.choice(pool)}"
        elif op < 0.7:
            lines.insert(i, line)  # a repeated key or entry
        elif op < 0.85:
            del lines[i]
            if not lines:
                lines = ["experiment: empty"]
        else:
            chars = list(line) or [" "]
            chars[rng.randrange(len(chars))] = rng.choice(["\x00", "\t", ":", "-", "[", "&", "*"])
            lines[i] = "".join(chars)
    return "\n".join(lines) + "\n"


def mutate_data(rng, text, sep):
    rows = [r for r in text.splitlines()]
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(rows))
        fields = rows[i].split(sep)
        op = rng.random()
        if op < 0.7:
            fields[rng.randrange(len(fields))] = rng.choice(HOSTILE_FIELDS)
            rows[i] = sep.join(fields)
        elif op < 0.8:
            rows.insert(i, rows[i])
        elif op < 0.9:
            rows[i] = sep.join(fields[:-1])
        else:
            rows[i] = rows[i] + sep + rng.choice(HOSTILE_FIELDS)
    return "\n".join(rows) + "\n"


def check_folder(out):
    """Problems with a result folder, as text; [] when it is sound."""
    problems = []
    if not os.path.isdir(out):
        return problems
    for name in os.listdir(out):
        if ".tmp" in name:
            problems.append(f"temporary file left: {name}")
    csv_path, jsonl_path = os.path.join(out, "results.csv"), os.path.join(out, "results.jsonl")
    if not os.path.exists(csv_path):
        return problems
    with open(csv_path, newline="", encoding="utf-8", errors="replace") as f:
        rows = list(csv.DictReader(f))
    runs_csv = set()
    for row in rows:
        runs_csv.add((row["cell"], row["repeat"]))
        if row["status"] != "ok":
            continue
        for column in ("train_rmse", "test_rmse", "test_accuracy", "prediction_max_diff"):
            value = row.get(column, "")
            if value and not math.isfinite(float(value)):
                problems.append(f"cell {row['cell']} is ok with {column} = {value}")
    runs_jsonl = set()
    if os.path.exists(jsonl_path):
        with open(jsonl_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    j = json.loads(line)
                except json.JSONDecodeError:
                    problems.append("results.jsonl has a line that is not JSON")
                    continue
                runs_jsonl.add((j.get("cell"), str(j.get("repeat"))))
    if runs_csv != runs_jsonl:
        problems.append(f"results.csv has {len(runs_csv)} runs, results.jsonl {len(runs_jsonl)}")
    return problems


def run_one(kexp, folder, config, timeout):
    out = os.path.join(folder, "out")
    try:
        p = subprocess.run([kexp, "run", config, "--out", out, "--quiet", "--threads", "1",
                            "--max-cells", "64"], cwd=folder, capture_output=True,
                           timeout=timeout, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    except subprocess.TimeoutExpired:
        return "timeout", [f"no exit within {timeout} s"]
    problems = []
    if p.returncode < 0:
        problems.append(f"killed by signal {-p.returncode}: {p.stderr.decode(errors='replace')[-300:]}")
    elif p.returncode not in (0, 1, 2, 3):
        problems.append(f"exit {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}")
    elif p.returncode == 2 and os.path.exists(out):
        problems.append("exit 2 but a result folder was written")
    problems += check_folder(out)
    return str(p.returncode), problems


def campaign(kind, count, make, kexp, rng, timeout, keep):
    exits, failures = {}, []
    for k in range(count):
        folder = tempfile.mkdtemp(prefix=f"kexp-fuzz-{kind}-")
        config = make(rng, folder)
        code, problems = run_one(kexp, folder, config, timeout)
        exits[code] = exits.get(code, 0) + 1
        if problems:
            dest = os.path.join(keep, f"{kind}-{k}")
            shutil.copytree(folder, dest, dirs_exist_ok=True)
            failures.append((dest, problems))
        shutil.rmtree(folder, ignore_errors=True)
    summary = ", ".join(f"exit {c}: {n}" for c, n in sorted(exits.items()))
    print(f"fuzz-runs: {kind}: {count} mutants ({summary}); {len(failures)} failed")
    for dest, problems in failures:
        for problem in problems:
            print(f"  {dest}: {problem}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kexp", default="build/bin/kexp")
    parser.add_argument("--configs", type=int, default=300)
    parser.add_argument("--data", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()
    kexp = os.path.abspath(args.kexp)
    rng = random.Random(args.seed)
    keep = tempfile.mkdtemp(prefix="kexp-fuzz-runs-")

    def config_mutant(rng, folder):
        path = os.path.join(folder, "exp.yaml")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(mutate_config(rng, rng.choice(SEED_CONFIGS)))
        return path

    def data_mutant(rng, folder):
        libsvm = rng.random() < 0.5
        name = "train.txt" if libsvm else "train.csv"
        text = mutate_data(rng, SEED_LIBSVM if libsvm else SEED_CSV, " " if libsvm else ",")
        with open(os.path.join(folder, name), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        path = os.path.join(folder, "exp.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"experiment: data\ndataset: {{plugin: {'libsvm' if libsvm else 'csv'}, "
                    f"train: {name}}}\nkernels: [{{plugin: linear}}, {{plugin: gaussian}}]\n"
                    "solvers: [{plugin: kernel_ridge}, {plugin: primal_ridge}]\n")
        return path

    failures = campaign("configs", args.configs, config_mutant, kexp, rng, args.timeout, keep)
    failures += campaign("data", args.data, data_mutant, kexp, rng, args.timeout, keep)
    if failures:
        print(f"fuzz-runs: the failing mutants are kept in {keep}")
        return 1
    shutil.rmtree(keep, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
