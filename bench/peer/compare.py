#!/usr/bin/python3
"""kexp side by side with scikit-learn on the same work.

Runs each task in fresh processes, alternating kexp and scikit-learn, on the same data
and in the same environment (both use Debian's OpenBLAS; OPENBLAS_NUM_THREADS and any
OPENBLAS_CORETYPE are passed to both; without one, each side runs with the kernels it
chooses: kexp its own choice, numpy OpenBLAS's). Prints, over the runs, the median and
the range of the seconds, of the task's peak memory above each process's own baseline
and of the kexp-faster-by ratios (run i of kexp against run i of scikit-learn), and the
largest difference between the two sides' predictions.

    /usr/bin/python3 bench/peer/compare.py [--build build] [--repeats 3] [--quick] [--check]
        [--cores defaults|best|both]

With --cores both it runs every task twice: once with each side's default kernels and
once with both on the widest kernels the CPU can execute (OPENBLAS_CORETYPE set for both),
a table each, so that a ratio that comes from one side's luck with OpenBLAS's choice is
told from one that comes from the code.

With --check it exits 1 when, on a task where the mathematics is the same on both sides
(all but random Fourier features), the predictions differ by more than 1e-8 relatively.

Uses Debian's python3-sklearn (scripts/setup.sh --bench); run it with /usr/bin/python3,
not a python3 of another installation.
"""
import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

TASKS = {
    # name: (kind, n_train, n_test, d, extra)
    "rbf_kernel": ("gram", 8000, 0, 10, {}),
    "KernelRidge": ("krr", 8000, 1000, 10, {"lambdas": [1e-3]}),
    # kexp factors K + λI in float32 and refines in float64 (its answer is float64's);
    # scikit-learn in float64, as always
    "KernelRidge (kexp mixed precision)": ("krr", 8000, 1000, 10,
                                           {"lambdas": [1e-1], "precision": "mixed"}),
    "GaussianProcessRegressor": ("gp", 4000, 1000, 10, {"noise": 1e-2}),
    "RBFSampler+Ridge": ("rff", 8000, 1000, 10, {"features": 1000, "lambdas": [1e-3]}),
    # the same m uniform centres on both sides (kexp draws them, scikit-learn is given them)
    "Nystroem+Ridge": ("nystrom", 100000, 1000, 10, {"features": 2000, "lambdas": [1e-3]}),
    "KernelRidge x10 lambdas": ("krr", 4000, 1000, 10, {"lambdas": list(np.logspace(-6, 0, 10))}),
    "KernelRidge x100 lambdas": ("krr", 4000, 1000, 10, {"lambdas": list(np.logspace(-6, 0, 100))}),
}
SIGMA = 2.0
AGREEMENT = 1e-8  # largest relative difference between the two sides' predictions


def sklearn_worker(args):
    """Runs one task with scikit-learn in this process and prints JSON."""
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF
    from sklearn.kernel_approximation import Nystroem, RBFSampler
    from sklearn.kernel_ridge import KernelRidge
    from sklearn.linear_model import Ridge
    from sklearn.metrics.pairwise import rbf_kernel

    X = np.fromfile(args.train).reshape(args.n, args.d)
    y = np.fromfile(args.y) if args.y else None
    T = np.fromfile(args.test).reshape(args.m, args.d) if args.test else None
    gamma = 1.0 / (2.0 * args.sigma**2)
    lambdas = [float(v) for v in args.lambdas.split(",")]
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    out = []
    start = time.perf_counter()
    if args.kind == "gram":
        times = []
        for _ in range(max(args.calls, 1)):  # rbf_kernel has no output argument: new K each call
            start = time.perf_counter()
            K = rbf_kernel(X, gamma=gamma)
            times.append(time.perf_counter() - start)
            row_sums = K.sum(axis=1)
            del K
        seconds = times[0]
        rest = sorted(times[1:]) or times
        steady = rest[len(rest) // 2]
        out.append(row_sums)
    elif args.kind == "krr":
        for lam in lambdas:
            model = KernelRidge(alpha=lam, kernel="rbf", gamma=gamma).fit(X, y)
            out.append(model.predict(T))
        seconds = time.perf_counter() - start
    elif args.kind == "gp":
        gp = GaussianProcessRegressor(kernel=RBF(length_scale=args.sigma), alpha=args.noise,
                                      optimizer=None).fit(X, y)
        mean, std = gp.predict(T, return_std=True)
        seconds = time.perf_counter() - start
        out += [mean, std]
    elif args.kind == "nystrom":
        # Given exactly m points, Nystroem keeps all of them as its basis (in an order of its
        # own, which rotates φ but changes no prediction).
        centres = np.fromfile(args.centres).astype(np.int64)
        sampler = Nystroem(kernel="rbf", gamma=gamma, n_components=len(centres), random_state=0)
        sampler.fit(X[centres])
        Phi = sampler.transform(X)
        model = Ridge(alpha=lambdas[0], fit_intercept=False, solver="cholesky").fit(Phi, y)
        out.append(model.predict(sampler.transform(T)))
        seconds = time.perf_counter() - start
    else:  # rff
        sampler = RBFSampler(gamma=gamma, n_components=args.features, random_state=args.seed)
        Phi = sampler.fit_transform(X)
        model = Ridge(alpha=lambdas[0], fit_intercept=False, solver="cholesky").fit(Phi, y)
        out.append(model.predict(sampler.transform(T)))
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    np.concatenate(out).tofile(args.out)
    result = {"seconds": seconds, "peak_rss": peak, "baseline_rss": baseline,
              "blas_core": blas_core()}
    if args.kind == "gram":
        result["steady_seconds"] = steady
    print(json.dumps(result))


def blas_core():
    """The kernels numpy's OpenBLAS runs with, as threadpoolctl reads them."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "?"
    return next((i.get("architecture", "?") for i in threadpool_info()
                 if i.get("internal_api") == "openblas"), "?")


def spread(values, digits=3):
    """The median of `values` and their range, as text."""
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def run_json(command, env):
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def best_core():
    """The widest OpenBLAS kernels this CPU can execute (bench/blas_cores.py's table)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
    from blas_cores import runnable
    return next(iter(runnable([])), None)


def compare(args):
    """Runs the tasks once for each setting of the BLAS kernels that --cores asks for."""
    base = dict(os.environ)
    base.setdefault("OPENBLAS_NUM_THREADS", str(os.cpu_count()))
    settings = []
    if args.cores in ("defaults", "both"):
        settings.append(("each side's default kernels", base))
    if args.cores in ("best", "both"):
        core = best_core()
        if core is None:
            sys.exit("no OpenBLAS kernels known for this CPU: run with --cores defaults")
        settings.append((f"both sides on the best kernels, OPENBLAS_CORETYPE={core}",
                         dict(base, OPENBLAS_CORETYPE=core)))
    disagree = []
    for label, env in settings:
        print(f"## {label}\n")
        disagree += run_tasks(args, env)
        print()
    if args.check and disagree:
        sys.exit(1)


def run_tasks(args, env):
    peer = os.path.join(args.build, "bin", "kexp_peer")
    if not os.path.exists(peer):
        sys.exit(f"{peer} not found: build kexp first (scripts/build.sh)")
    rng = np.random.default_rng(7)
    rows = []
    cores = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (kind, n, m, d, extra) in TASKS.items():
            if args.only and not any(o in name for o in args.only.split(",")):
                continue
            if args.quick:
                n, m = n // 4, max(m // 4, 1) if m else 0
            X = rng.uniform(-1, 1, (n, d))
            y = np.sin(X.sum(axis=1)) + 0.1 * rng.standard_normal(n)
            T = rng.uniform(-1, 1, (m, d)) if m else None
            paths = {k: os.path.join(tmp, f"{k}.bin") for k in ("X", "y", "T", "pk", "ps")}
            X.tofile(paths["X"])
            y.tofile(paths["y"])
            if T is not None:
                T.tofile(paths["T"])
            lambdas = ",".join(repr(float(v)) for v in extra.get("lambdas", [1e-3]))
            common = ["--train", paths["X"], "--n", str(n), "--d", str(d), "--sigma", str(SIGMA),
                      "--lambdas", lambdas]
            if m:
                common += ["--y", paths["y"], "--test", paths["T"], "--m", str(m)]
            if "noise" in extra:
                common += ["--noise", str(extra["noise"])]
            if kind == "gram":
                common += ["--calls", "5"]
            if "features" in extra:
                features = extra["features"] // 4 if args.quick and kind == "nystrom" else extra["features"]
                common += ["--features", str(features), "--seed", "3"]
            if kind == "nystrom":
                common += ["--centres", os.path.join(tmp, "centres.bin")]
            kexp_cmd = [peer, kind] + common + ["--out", paths["pk"]]
            if "precision" in extra:
                kexp_cmd += ["--precision", extra["precision"]]
            sk_cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--kind", kind] + common + [
                "--out", paths["ps"]]
            results = {"kexp": [], "sklearn": []}
            for _ in range(args.repeats):  # alternate the two sides
                results["kexp"].append(run_json(kexp_cmd, env))
                results["sklearn"].append(run_json(sk_cmd, env))
            pk, ps = np.fromfile(paths["pk"]), np.fromfile(paths["ps"])
            diff = float(np.max(np.abs(pk - ps)) / max(np.max(np.abs(ps)), 1e-300)) if pk.size == ps.size else float("nan")
            for side in results:
                cores.setdefault(side, set()).update(r.get("blas_core", "?") for r in results[side])
            secs = {s: [r["seconds"] for r in results[s]] for s in results}
            mem = {s: [(r["peak_rss"] - r["baseline_rss"]) / 1e6 for r in results[s]] for s in results}
            if kind == "gram":
                steady = {s: [r["steady_seconds"] for r in results[s]] for s in results}
                rows.append((name + " (repeated calls)", n, steady, None, diff, False))
                name += " (first call)"
            rows.append((name, n, secs, mem, diff, kind == "rff"))
            print(f"{name}: done", file=sys.stderr)
    disagree = [(name, diff) for name, _, _, _, diff, random in rows
                if not random and not diff <= AGREEMENT]
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"machine: {cpu}, {os.cpu_count()} cores; OPENBLAS_NUM_THREADS={env['OPENBLAS_NUM_THREADS']}"
          f" OPENBLAS_CORETYPE={env.get('OPENBLAS_CORETYPE', '(not set)')}; OpenBLAS kernels: kexp"
          f" {'/'.join(sorted(cores.get('kexp', {'?'})))}, scikit-learn"
          f" {'/'.join(sorted(cores.get('sklearn', {'?'})))}; {args.repeats} alternating runs each;"
          f" python {platform.python_version()}\n")
    print("Each figure is the median over the runs, with the range in brackets; a ratio is"
          " taken run by run (run i of scikit-learn over run i of kexp).\n")
    print("| task | n | kexp s | sklearn s | kexp faster by | kexp MB | sklearn MB | memory ratio | max rel. diff |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, n, secs, mem, diff, random in rows:
        note = " (different random features)" if random else ""
        ratios = [b / a for a, b in zip(secs["kexp"], secs["sklearn"])]
        if mem is None:
            mem_cells = "| – | – | – |"
        else:
            mem_ratios = [b / a for a, b in zip(mem["kexp"], mem["sklearn"]) if a > 0]
            mem_cells = (f"| {spread(mem['kexp'], 0)} | {spread(mem['sklearn'], 0)} | "
                         f"{spread(mem_ratios, 2) + '×' if mem_ratios else '–'} |")
        print(f"| {name} | {n} | {spread(secs['kexp'])} | {spread(secs['sklearn'])} | "
              f"{spread(ratios, 2)}× {mem_cells} {diff:.1e}{note} |")
    for name, diff in disagree:
        print(f"{name}: predictions differ by {diff:.1e} relatively, more than {AGREEMENT:g}",
              file=sys.stderr)
    return disagree


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="a quarter of the sizes, to check the script")
    p.add_argument("--only", default="", help="comma-separated parts of task names to run")
    p.add_argument("--cores", choices=("defaults", "best", "both"), default="defaults",
                   help="the BLAS kernels: each side's default (kexp its own choice, numpy "
                        "OpenBLAS's, or the caller's OPENBLAS_CORETYPE), both on the widest "
                        "the CPU can execute, or one table of each")
    p.add_argument("--check", action="store_true",
                   help=f"exit 1 when same-mathematics predictions differ by more than {AGREEMENT:g}")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    for opt in ("--kind", "--train", "--y", "--test", "--out", "--lambdas", "--centres"):
        p.add_argument(opt, default="" if opt != "--lambdas" else "1e-3")
    for opt in ("--n", "--m", "--d", "--features", "--seed", "--calls"):
        p.add_argument(opt, type=int, default=0)
    p.add_argument("--sigma", type=float, default=SIGMA)
    p.add_argument("--noise", type=float, default=1e-2)
    args = p.parse_args()
    if args.worker:
        sklearn_worker(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
