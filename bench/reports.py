#!/usr/bin/python3
"""How long kexp takes to write the report of a large sweep, and how large report.html is.

Each sweep has tiny cells (cubic data, n = 20, d = 2, timed once), so that the run itself
is short and the report is what is measured:

- `pairs`: primal_ridge and kernel_ridge over the same λ sweep, N/2 values each, so that
  every primal cell has one dual counterpart among N/2 candidates (pairing by all pairs
  costs (N/2)² comparisons);
- `dual`: kernel_ridge alone over N values of λ.

For each size N it runs the sweep once (`kexp run`); past --run-up-to cells (default 10⁴:
10⁵ tiny cells take an hour on a busy 2-core machine) it runs 10³ cells and writes their rows
again, each time with a new cell id and a new λ, the pairs kept as pairs, until results.csv
holds N cells: the report reads results.csv alone. Then it times, round after round,
`kexp report DIR` (summary.md and the plots) and `kexp report --html DIR` (the same and
report.html), each a process of its own, with its peak resident memory, and the size of
report.html. With --check it fails when at the largest size either report takes 10 s or
more (median over the rounds) or report.html is 10 MB or more.

    /usr/bin/python3 bench/reports.py [--build build] [--sizes 1000,10000,100000]
                                      [--rounds 3] [--run-up-to 10000] [--check]

Prints, per sweep and size, the median and the range over the rounds.
"""
import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SWEEPS = {
    "pairs": """experiment: report-pairs-{cells}
seed: 1
threads: 1
timing: {{min_seconds: 0, max_measurements: 1}}
dataset: {{plugin: cubic, n: 25, d: 2}}
kernels:
  - {{plugin: polynomial, degree: 2}}
solvers:
  - {{plugin: primal_ridge, lambda: {{logspace: [-6, 0, {half}]}}}}
  - {{plugin: kernel_ridge, lambda: {{logspace: [-6, 0, {half}]}}}}
""",
    "dual": """experiment: report-dual-{cells}
seed: 1
threads: 1
timing: {{min_seconds: 0, max_measurements: 1}}
dataset: {{plugin: cubic, n: 25, d: 2}}
kernels:
  - {{plugin: polynomial, degree: 2}}
solvers:
  - {{plugin: kernel_ridge, lambda: {{logspace: [-6, 0, {cells}]}}}}
""",
}

# The targets: each report of the largest sweep in less than this, report.html smaller.
TARGET_SECONDS = 10.0
TARGET_HTML_BYTES = 10 * 1000 * 1000


def run(command, env):
    """Wall seconds and peak RSS (bytes) of a command, from its own resource usage."""
    start = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, env=env) as child:
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        errors = child.stderr.read()
    if child.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {child.returncode}:\n{errors}")
    return seconds, usage.ru_maxrss * 1024


def grow(folder, cells):
    """Writes results.csv of `folder` again with `cells` cells: its rows repeated, each
    repeat with new cell ids and a new λ on the sweep's range (logspace -6 … 0), a primal
    and a dual row of one λ kept a pair (paired_with)."""
    path = os.path.join(folder, "results.csv")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    at = {name: i for i, name in enumerate(header)}
    forms = sorted({r[at["form"]] for r in body})
    per_value = len(forms)  # cells of one λ: one, or a primal and a dual
    values = cells // per_value
    by_form = {form: [r for r in body if r[at["form"]] == form] for form in forms}
    out = [header]
    for k in range(values):
        lam = repr(10 ** (-6 + 6 * k / max(values - 1, 1)))
        ids = {form: f"{k * per_value + j:016x}" for j, form in enumerate(forms)}
        for form in forms:
            row = list(by_form[form][k % len(by_form[form])])
            row[at["cell"]] = ids[form]
            row[at["solver.lambda"]] = lam
            if row[at["paired_with"]]:
                row[at["paired_with"]] = ids["primal"]
            out.append(row)
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(out)


def spread(values, unit="", scale=1.0):
    values = [v * scale for v in values]
    return f"{statistics.median(values):.3g}{unit} ({min(values):.3g}–{max(values):.3g})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--sweeps", default="pairs,dual")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--run-up-to", type=int, default=10000)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    kexp = os.path.join(args.build, "bin", "kexp")
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    sizes = [int(s) for s in args.sizes.split(",")]
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for sweep in args.sweeps.split(","):
            for cells in sizes:
                ran = cells if cells <= args.run_up_to else 1000
                config = os.path.join(tmp, f"{sweep}-{cells}.yaml")
                with open(config, "w") as f:
                    f.write(SWEEPS[sweep].format(cells=ran, half=ran // 2))
                out = os.path.join(tmp, f"{sweep}-{cells}")
                run_seconds, _ = run([kexp, "run", config, "--out", out, "--quiet",
                                      "--max-cells", str(max(ran, 100000))], env)
                if ran < cells:
                    grow(out, cells)
                summary, html, html_bytes = [], [], 0
                summary_rss = html_rss = 0
                for _ in range(args.rounds):
                    seconds, rss = run([kexp, "report", out], env)
                    summary.append(seconds)
                    summary_rss = max(summary_rss, rss)
                    seconds, rss = run([kexp, "report", "--html", out], env)
                    html.append(seconds)
                    html_rss = max(html_rss, rss)
                    html_bytes = os.path.getsize(os.path.join(out, "report.html"))
                print(f"{sweep:5} {cells:>7} cells{' (rows of 1000 repeated)' if ran < cells else ''}: "
                      f"run {run_seconds:.3g} s; "
                      f"kexp report {spread(summary, ' s')}; "
                      f"kexp report --html {spread(html, ' s')}, "
                      f"report.html {html_bytes / 1e6:.3g} MB; "
                      f"peak RSS {summary_rss / 2**20:.0f} / {html_rss / 2**20:.0f} MiB",
                      flush=True)
                if args.check and cells == max(sizes):
                    if statistics.median(summary) >= TARGET_SECONDS:
                        failed.append(f"{sweep} {cells}: kexp report took "
                                      f"{statistics.median(summary):.3g} s")
                    if statistics.median(html) >= TARGET_SECONDS:
                        failed.append(f"{sweep} {cells}: kexp report --html took "
                                      f"{statistics.median(html):.3g} s")
                    if html_bytes >= TARGET_HTML_BYTES:
                        failed.append(f"{sweep} {cells}: report.html is {html_bytes} bytes")
                shutil.rmtree(out, ignore_errors=True)
    if failed:
        sys.exit("over the targets (10 s, 10 MB): " + "; ".join(failed))


if __name__ == "__main__":
    main()
