#!/usr/bin/python3
"""How each hot path scales from one thread to all: t₁ / (p · t_p), side by side.

Runs `hot_paths_bench` in fresh processes, one round after another, each round once on
one thread (OMP_NUM_THREADS=1 for kexp's own loops, OPENBLAS_NUM_THREADS=1 for BLAS) and
once on p threads (both = p, default every core), and prints for each hot path the
median and range of its time at 1 and at p threads and of the efficiency, round by round
(round i's one-thread time against round i's p-thread time). Also the entries per second
of the matrix-free products against the Gram matrix's, at p threads.

    /usr/bin/python3 bench/scaling.py [--build build] [--rounds 3] [--threads P]
        [--filter REGEX] [--sequences REGEX]

The hot paths by default: the Gaussian Gram matrix (n = 4000), its matrix-free product
K v (cg_ridge's step; n = 16 000), a falkon pass K_nmᵀ(K_nm u + v) (n = 40 000,
m = 3000), the kernel_ridge fit (a Cholesky; n = 4000), dual_gd's steps (n = 4000),
primal_ridge's fit (D = 1000, n = 16 000), the Nyström map (n = 16 000, m = 1000), the
λ-sweep's band reduction (n = 2000), GP learning's evaluations of log p(t) and its
gradient (n = 2000), DGEMM (n = 4000) and a product with a stored K by DGEMV (n = 4000:
the memory-bound limit that dual_gd's steps and the band reduction meet), from
hot_paths_bench; and the sequence
kernels' Gram matrices (spectrum and hmm_fisher, 2000 sequences of length 100) from
sequence_kernels_bench.
"""
import argparse
import os
import statistics
import sys

from blas_cores import cpu_model, hot_paths

DEFAULT = ("^(Gram/gaussian/4000|Product/16000|NormalProduct/40000/3000|KernelRidgeFit/4000|"
           "DualGdStep/4000|PrimalRidgeFit/1000/16000|NystromMap/16000/1000|BandReduction/2000|"
           "GpLearn/2000|Dgemm/4000|Dgemv/4000)/")
SEQUENCES = "^BM_(Spectrum|HmmFisher)/2000/100/"


def one_run(programs, threads):
    """Each (program, pattern) once on `threads` threads: the BLAS kernels and, per
    benchmark, its time in ms and its time per entry (or None)."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    times = {}
    core = "?"
    for program, pattern in programs:
        if not pattern:
            continue
        report = hot_paths(program, pattern, env)
        core = report["context"].get("blas_core", core)
        for b in report["benchmarks"]:
            name = b["name"].removesuffix("/real_time")
            scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ms")]
            times[name] = (b["real_time"] * scale, b.get("entry"))
    return core, times


def span(values, digits=2):
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f}–{max(values):.{digits}f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--filter", default=DEFAULT, help="hot_paths_bench's benchmarks")
    parser.add_argument("--sequences", default=SEQUENCES,
                        help="sequence_kernels_bench's benchmarks ('' for none)")
    args = parser.parse_args()
    programs = [(os.path.join(args.build, "bin", "hot_paths_bench"), args.filter),
                (os.path.join(args.build, "bin", "sequence_kernels_bench"), args.sequences)]
    p = args.threads

    one, many = [], []
    core = "?"
    for _ in range(args.rounds):
        core, times = one_run(programs, 1)
        one.append(times)
        _, times = one_run(programs, p)
        many.append(times)

    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; BLAS kernels {core}; "
          f"{args.rounds} rounds, median (min–max)")
    print(f"| hot path | 1 thread, ms | {p} threads, ms | efficiency t₁ / ({p}·t_{p}) |")
    print("|---|---|---|---|")
    for name in one[0]:
        t1 = [r[name][0] for r in one]
        tp = [r[name][0] for r in many]
        efficiency = [a / (p * b) for a, b in zip(t1, tp)]
        print(f"| {name} | {span(t1, 1)} | {span(tp, 1)} | {span(efficiency)} |")
    gram = next((n for n in many[0] if n.startswith("Gram/")), None)
    if gram is not None:
        for name in many[0]:
            if "Product" in name and many[0][name][1]:
                # the rate is 1/entry: the product's rate over the Gram's is gram / product
                ratio = [r[gram][1] / r[name][1] for r in many]
                print(f"{name}: kernel values per second at {p} threads, as a fraction of "
                      f"{gram}'s: {span(ratio)}")
    # The paths bound by memory, not by arithmetic, against the machine's own memory-bound
    # scaling: DGEMV over a stored K reads as fast as the cores together can.
    gemv = next((n for n in one[0] if n.startswith("Dgemv/")), None)
    if gemv is not None:
        limit = [a[gemv][0] / (p * b[gemv][0]) for a, b in zip(one, many)]
        for name in one[0]:
            if name.startswith(("DualGdStep/", "BandReduction/")):
                ratio = [a[name][0] / (p * b[name][0]) / e for a, b, e in zip(one, many, limit)]
                print(f"{name}: efficiency as a fraction of {gemv}'s (memory-bound): "
                      f"{span(ratio)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
