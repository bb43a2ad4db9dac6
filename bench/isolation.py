#!/usr/bin/python3
"""What running plugins apart from kexp costs: the probe of a plugin library, and a group
of cells run in a child process.

The probe: `kexp plugins` over a folder of K copies of a plugin library that is not one of
kexp's own (each probed in a child process, then opened), against the same with the
folder empty; the difference divided by K is the cost per library.

The groups: a small sweep (cubic data, n = 200, G kernel variants of one cell each, so G
groups) run with and without --no-isolation, one after the other, round after round; the
difference of the wall times divided by G is the cost per group, and its ratio to the
in-process run says what it costs a sweep of small cells (large cells pay the same
per group, a smaller share).

    /usr/bin/python3 bench/isolation.py [--build build] [--rounds 5] [--copies 20] [--groups 40]

Prints the median and the range over the rounds.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SWEEP = """experiment: isolation-cost
seed: 1
timing: {{max_measurements: 1}}
dataset: {{plugin: cubic, n: 250, d: 3}}
kernels:
  - plugin: gaussian
    sigma: {{linspace: [0.5, 5, {groups}]}}
solvers:
  - {{plugin: kernel_ridge, lambda: 1e-3}}
"""


def timed(command, env=None):
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return seconds


def spread(values, scale=1.0, unit=""):
    values = [v * scale for v in values]
    return f"{statistics.median(values):.3g}{unit} ({min(values):.3g}–{max(values):.3g})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--groups", type=int, default=40)
    args = parser.parse_args()
    kexp = os.path.join(args.build, "bin", "kexp")
    library = os.path.join(args.build, "tests", "fixtures", "forms",
                           "libkexp_fixture_throwing_kernel.so")
    for path in (kexp, library):
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: build kexp and its tests first (scripts/build.sh)")

    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty")
        copies = os.path.join(tmp, "copies")
        os.makedirs(empty)
        os.makedirs(copies)
        # Copies under other file names declare one plugin name: each is probed, then
        # opened; all but the first collide, which costs nothing next to opening them.
        for i in range(args.copies):
            shutil.copy(library, os.path.join(copies, f"libcopy{i}.so"))
        config = os.path.join(tmp, "sweep.yaml")
        with open(config, "w") as f:
            f.write(SWEEP.format(groups=args.groups))

        per_library, per_group, ratio = [], [], []
        for _ in range(args.rounds):
            base = timed([kexp, "plugins", "--plugin-path", empty])
            probed = timed([kexp, "plugins", "--plugin-path", copies])
            per_library.append((probed - base) / args.copies)

            out = os.path.join(tmp, "out")
            isolated = timed([kexp, "run", config, "--quiet", "--force", "--out", out])
            in_process = timed(
                [kexp, "run", config, "--quiet", "--force", "--out", out, "--no-isolation"])
            per_group.append((isolated - in_process) / args.groups)
            ratio.append(isolated / in_process)

    print(f"probe of a plugin library (kexp plugins, {args.copies} copies): "
          f"{spread(per_library, 1e3, ' ms')} per library")
    print(f"a group in a child process ({args.groups} groups of one cell, n = 250): "
          f"{spread(per_group, 1e3, ' ms')} per group; isolated / in-process wall time "
          f"{spread(ratio)}")


if __name__ == "__main__":
    main()
