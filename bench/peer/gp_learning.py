#!/usr/bin/python3
"""Learned GP hyperparameters: kexp's gp_regression (optimize: true) against
scikit-learn's GaussianProcessRegressor on the diabetes data of configs/data.

Both maximise the same log marginal likelihood over the same hyperparameters, from the
same start (every value 1) and within the same bounds ([1e-5, 1e5] for each, scikit-learn's
default), with the same number of random restarts:

    rbf  θ₀·exp(−‖x − z‖²/2σ²) + noise·I
         kexp: scale·gaussian(σ), noise     sklearn: C·RBF(ℓ) + WhiteKernel
    gp4  θ₀·exp(−‖x − z‖²/2σ²) + θ₂ + θ₃·xᵀz + noise·I
         kexp: sum of scale·gaussian, constant and scale·linear
         sklearn: C·RBF + C + C·DotProduct(σ₀ = 0, fixed) + WhiteKernel

The ten features and the target are standardized (mean 0, standard deviation 1); all 442
rows are the training set. Each side runs in fresh processes, alternately, `--repeats`
times. Prints, per kernel, the best log p(t) of each side, their relative difference,
and the seconds of each side with the kexp-faster-by ratio (median and range).

    /usr/bin/python3 bench/peer/gp_learning.py [--build build] [--repeats 3] [--restarts 5]

With --check it exits 1 when kexp's best log p(t) is below scikit-learn's by more than
1e-3 relatively.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOLERANCE = 1e-3


def sklearn_worker(args):
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel, DotProduct, WhiteKernel

    X = np.fromfile(args.train).reshape(args.n, args.d)
    y = np.fromfile(args.y)
    kernel = ConstantKernel(1.0) * RBF(1.0)
    if args.kernel == "gp4":
        kernel = kernel + ConstantKernel(1.0) + ConstantKernel(1.0) * DotProduct(
            sigma_0=0.0, sigma_0_bounds="fixed")
    kernel = kernel + WhiteKernel(1.0)
    start = time.perf_counter()
    gp = GaussianProcessRegressor(kernel=kernel, alpha=1e-10, n_restarts_optimizer=args.restarts,
                                  random_state=args.seed).fit(X, y)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "log_marginal_likelihood":
                      float(gp.log_marginal_likelihood_value_), "learned": str(gp.kernel_)}))


def run_json(command, env):
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def spread(values, digits=3):
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--kernel", default="rbf")
    parser.add_argument("--train")
    parser.add_argument("--y")
    parser.add_argument("--n", type=int)
    parser.add_argument("--d", type=int)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.worker:
        sklearn_worker(args)
        return 0

    data = np.loadtxt(os.path.join(ROOT, "configs", "data", "diabetes.csv"), delimiter=",",
                      skiprows=1)
    X, y = data[:, :-1], data[:, -1]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    y = (y - y.mean()) / y.std()
    n, d = X.shape
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    peer = os.path.join(args.build, "bin", "kexp_peer")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        train, target = os.path.join(tmp, "X.bin"), os.path.join(tmp, "y.bin")
        np.ascontiguousarray(X).tofile(train)
        y.tofile(target)
        print(f"diabetes: n = {n}, d = {d}, {args.restarts} restarts, "
              f"OPENBLAS_NUM_THREADS={env['OPENBLAS_NUM_THREADS']}, {args.repeats} repeats")
        for kernel in ("rbf", "gp4"):
            common = ["--train", train, "--y", target, "--n", str(n), "--d", str(d)]
            k_runs, s_runs = [], []
            for r in range(args.repeats):
                k_runs.append(run_json([peer, "gp_learn", *common, "--kernel", kernel,
                                        "--restarts", str(args.restarts), "--seed", str(r)], env))
                s_runs.append(run_json([sys.executable, __file__, "--worker", *common,
                                        "--kernel", kernel, "--seed", str(r),
                                        "--restarts", str(args.restarts)], env))
            k_best = max(run["log_marginal_likelihood"] for run in k_runs)
            s_best = max(run["log_marginal_likelihood"] for run in s_runs)
            k_worst = min(run["log_marginal_likelihood"] for run in k_runs)
            gap = (s_best - k_worst) / abs(s_best)
            ratios = [s["seconds"] / k["seconds"] for k, s in zip(k_runs, s_runs)]
            print(f"\n{kernel}: log p(t) kexp {k_best:.6f} (worst run {k_worst:.6f}), "
                  f"scikit-learn {s_best:.6f}; kexp's worst below scikit-learn's best by "
                  f"{max(gap, 0.0):.2e} relatively")
            print(f"  kexp learned {k_runs[0]['learned']}")
            print(f"  scikit-learn learned {s_runs[0]['learned']}")
            print(f"  seconds: kexp {spread([k['seconds'] for k in k_runs])}, scikit-learn "
                  f"{spread([s['seconds'] for s in s_runs])}; kexp faster by "
                  f"{spread(ratios, 1)}×")
            failed = failed or gap > TOLERANCE
    if args.check and failed:
        print(f"\ngp_learning: kexp's log p(t) is below scikit-learn's by more than "
              f"{TOLERANCE} relatively", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
