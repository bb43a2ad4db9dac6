#!/usr/bin/python3
"""DGEMM through the BLAS kernels kexp chooses, against every core type side by side.

Runs `hot_paths_bench --benchmark_filter=^Dgemm/N/` in fresh processes, one round after
another, each round once with kexp's own choice (no OPENBLAS_CORETYPE: kexp decides from
the CPU's features, util/blas_core), once with OpenBLAS's own (KEXP_OPENBLAS_CORETYPE=keep)
and once with each core type kexp may choose that this CPU can execute
(OPENBLAS_CORETYPE=X). Prints, for each, the kernels that ran and the median and range of
GFLOP/s over the rounds, then kexp's rate as a fraction of the fastest core type's, round
by round (kexp's run of round i against the fastest's run of round i).

    /usr/bin/python3 bench/blas_cores.py [--build build] [--rounds 3] [--n 4000]
        [--threads N] [--target 0.9]
    /usr/bin/python3 bench/blas_cores.py --runnable [CORE ...]

--runnable prints which of the named core types this CPU can execute (the numerical
stage of the test command, scripts/test-numerics.sh, asks it).

Exits 1 when the median fraction is below --target. OPENBLAS_NUM_THREADS is --threads
(default: every core) for every run; a setting of OPENBLAS_CORETYPE in the caller's
environment is removed from every run.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

# What each core type kexp may choose needs of the CPU (/proc/cpuinfo's flags).
NEEDS = {
    "Cooperlake": ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16"],
    "SkylakeX": ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"],
    "Haswell": ["avx2", "fma"],
    "Sandybridge": ["avx"],
    "Prescott": ["pni"],
}


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def runnable(cores):
    """The core types of `cores` (all of NEEDS when empty) that this CPU can execute."""
    flags = cpu_flags()
    return [c for c in (cores or NEEDS) if all(f in flags for f in NEEDS[c])]


def hot_paths(program, pattern, env, *extra):
    """One run of hot_paths_bench on the benchmarks `pattern` matches: its JSON report."""
    done = subprocess.run([program, f"--benchmark_filter={pattern}", "--benchmark_format=json",
                           *extra], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{program} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def one_run(program, n, env):
    report = hot_paths(program, f"^Dgemm/{n}/", env, "--benchmark_min_time=2")
    bench = report["benchmarks"][0]
    return report["context"]["blas_core"], report["context"]["blas_core_chosen_by"], \
        bench["flops"] / 1e9


def summary(values):
    return f"{statistics.median(values):7.1f} ({min(values):.1f}–{max(values):.1f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--target", type=float, default=0.9)
    parser.add_argument("--runnable", nargs="*", metavar="CORE",
                        help="only print which of these core types (all when none are named) "
                             "this CPU can execute, one a line, and exit")
    args = parser.parse_args()
    if args.runnable is not None:
        unknown = [c for c in args.runnable if c not in NEEDS]
        if unknown:
            sys.exit(f"unknown core types: {', '.join(unknown)}; known: {', '.join(NEEDS)}")
        print("\n".join(runnable(args.runnable)))
        return 0
    program = os.path.join(args.build, "bin", "hot_paths_bench")

    cores = runnable([])
    skipped = [c for c in NEEDS if c not in cores]
    base = {k: v for k, v in os.environ.items()
            if k not in ("OPENBLAS_CORETYPE", "KEXP_OPENBLAS_CORETYPE",
                         "KEXP_OPENBLAS_CORETYPE_SET", "KEXP_OPENBLAS_CORETYPE_WAS")}
    base["OPENBLAS_NUM_THREADS"] = str(args.threads)
    settings = {"kexp's choice": dict(base),
                "OpenBLAS's own": dict(base, KEXP_OPENBLAS_CORETYPE="keep")}
    for core in cores:
        settings[core] = dict(base, OPENBLAS_CORETYPE=core)

    rates = {name: [] for name in settings}
    ran = {}
    for _ in range(args.rounds):
        for name, env in settings.items():
            core, by, gflops = one_run(program, args.n, env)
            rates[name].append(gflops)
            ran[name] = f"{core} (chosen by {by})"

    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; OPENBLAS_NUM_THREADS={args.threads}")
    print(f"DGEMM n = {args.n}, GFLOP/s over {args.rounds} rounds, median (min–max):")
    for name in settings:
        print(f"  {name:16} {summary(rates[name])}   {ran[name]}")
    if skipped:
        print(f"  not run (this CPU cannot execute them): {', '.join(skipped)}")
    fastest = max(cores, key=lambda c: statistics.median(rates[c]))
    fractions = [k / f for k, f in zip(rates["kexp's choice"], rates[fastest])]
    print(f"kexp's choice / {fastest} (the fastest): {statistics.median(fractions):.2f} "
          f"({min(fractions):.2f}–{max(fractions):.2f}), target ≥ {args.target}")
    return 0 if statistics.median(fractions) >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
