#!/usr/bin/python3
"""kexp's hot paths against the machine's own limits, measured side by side in one run.

Each round measures the limits afresh (`kexp machine --measure`, into a file of its own,
never the user's cache), then runs hot_paths_bench on the Cholesky factorization
(n = 8000), the Gaussian Gram matrix (n = 4000, d = 10) and DGEMM (n = 4000), and states:

  - the Cholesky's GFLOP/s (n³/3 flops) as a fraction of DGEMM's, both the DGEMM of
    `kexp machine` and the DGEMM of hot_paths_bench in the same round (target ≥ 0.85);
  - the Gram matrix's entries per second as a fraction of the bound of one DGEMM share
    (2d flops), one exp and one 8-byte write per entry (util/machine.hpp; target ≥ 0.50).

Every figure is the median and range over the rounds; the CPU and the BLAS kernels are
named. Run it on an idle machine: other work lowers both sides, but not equally.

    /usr/bin/python3 bench/limits.py [--build build] [--rounds 3]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from blas_cores import cpu_model, hot_paths
from scaling import span

PATTERN = "^(Cholesky/8000|Gram/gaussian/4000|Dgemm/4000)/"
D = 10  # hot_paths_bench's points


def gram_bound(rates, d):
    seconds = (2.0 * d / rates["dgemm_flops_per_second"] + 1.0 / rates["exp_per_second"]
               + 8.0 / rates["write_bytes_per_second"])
    return 1.0 / seconds


def machine(program, file):
    env = dict(os.environ, KEXP_MACHINE_FILE=file)
    done = subprocess.run([program, "machine", "--measure", "--json"], env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"kexp machine failed:\n{done.stderr}")
    if done.stderr.strip():
        print(done.stderr.strip(), file=sys.stderr)
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    kexp = os.path.join(args.build, "bin", "kexp")
    bench = os.path.join(args.build, "bin", "hot_paths_bench")

    rows = {k: [] for k in ("dgemm_machine", "dgemm_bench", "cholesky", "chol_machine",
                            "chol_bench", "gram", "bound", "gram_fraction")}
    core = "?"
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            limits = machine(kexp, os.path.join(tmp, "machine.json"))
            rates = limits["all_threads"]
            report = hot_paths(bench, PATTERN, dict(os.environ))
            core = report["context"].get("blas_core", "?")
            by = {b["name"].removesuffix("/real_time"): b for b in report["benchmarks"]}
            chol = by["Cholesky/8000"]["flops"]
            dgemm = by["Dgemm/4000"]["flops"]
            gram = 1.0 / by["Gram/gaussian/4000"]["entry"]
            bound = gram_bound(rates, D)
            rows["dgemm_machine"].append(rates["dgemm_flops_per_second"] / 1e9)
            rows["dgemm_bench"].append(dgemm / 1e9)
            rows["cholesky"].append(chol / 1e9)
            rows["chol_machine"].append(chol / rates["dgemm_flops_per_second"])
            rows["chol_bench"].append(chol / dgemm)
            rows["gram"].append(gram / 1e9)
            rows["bound"].append(bound / 1e9)
            rows["gram_fraction"].append(gram / bound)

    print(f"CPU: {cpu_model()}, {os.cpu_count()} processors; OpenBLAS {core} kernels; "
          f"{args.rounds} rounds, median (range)\n")
    print(f"DGEMM, kexp machine (n = 2048)     {span(rows['dgemm_machine'], 1)} GFLOP/s")
    print(f"DGEMM, hot_paths_bench (n = 4000)  {span(rows['dgemm_bench'], 1)} GFLOP/s")
    print(f"Cholesky, n = 8000                 {span(rows['cholesky'], 1)} GFLOP/s")
    print(f"  of kexp machine's DGEMM          {span(rows['chol_machine'])}   target ≥ 0.85")
    print(f"  of the same round's DGEMM        {span(rows['chol_bench'])}   target ≥ 0.85")
    print(f"Gaussian Gram, n = 4000, d = {D}    {span(rows['gram'], 3)} G entries/s")
    print(f"  bound (DGEMM share, exp, write)  {span(rows['bound'], 3)} G entries/s")
    print(f"  of the bound                     {span(rows['gram_fraction'])}   target ≥ 0.50")


if __name__ == "__main__":
    main()
