#!/usr/bin/env bash
# The cluster guide's Slurm workflow (docs/guide/cluster.md), end to end, on a real single-node Slurm brought up by
# scripts/slurm-local.sh, scaled down to about half a minute:
#   1. the guide's job script is byte-identical to scripts/slurm/kexp-array.sbatch;
#   2. that script runs as an array of 4 shards (--mem per job), with the guide's merge
#      command as a job that depends on the array (afterany);
#   3. one shard is cancelled (SIGTERM) after it has written some rows: it stops with its
#      manifest marked stopped, and the first merge reports the missing runs (exit 1);
#   4. the array and the merge are submitted again: the cancelled shard goes on with
#      --resume, the others keep what they have, and the merged folder holds every
#      cell × repeat of the dry run exactly once, all ok; kexp merge exits 0;
#   5. inside --mem=1G the dry run's budget is 80% of the job's cgroup limit (859 MB),
#      and a cell that needs about 1.4 GB is refused with its estimate, not killed.
# Usage: job_array_test.sh KEXP_BINARY [SOURCE_DIR]
# Exits 77 (skipped) when not root or Slurm cannot be installed.
set -euo pipefail

started=$EPOCHREALTIME
kexp_bin=$(realpath "${1:?usage: job_array_test.sh KEXP_BINARY [SOURCE_DIR]}")
src=$(realpath "${2:-$(dirname "$0")/../..}")
script=$src/scripts/slurm/kexp-array.sbatch

skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
elapsed() { awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
note() { echo "[$(elapsed) s] $*"; }

[[ $(id -u) -eq 0 ]] || skip "needs root to run the Slurm daemons"
[[ -x $kexp_bin ]] || fail "no kexp binary at $kexp_bin"
command -v python3 >/dev/null || skip "needs python3 to read results.csv"

# 1. The guide shows the job script as it is in the repository.
readme_copy=$(awk '/^# On a cluster/ {in_section = 1}
                   in_section && /^```/ {if (in_block) exit; in_block = 1; next}
                   in_block {print}' "$src/docs/guide/cluster.md")
[[ "$readme_copy" == "$(<"$script")" ]] ||
  fail "docs/guide/cluster.md's job script differs from scripts/slurm/kexp-array.sbatch:
$(diff <(echo "$readme_copy") "$script" || true)"
merge_line=$(grep -o "'kexp merge [^']*'" "$src/docs/guide/cluster.md" | head -n 1 | tr -d "'")
[[ $merge_line == *"-shard-*-of-16 --out "* ]] || fail "docs/guide/cluster.md's merge command not found"
merge_cmd=${merge_line//-of-16/-of-4}

tmp=$(mktemp -d /tmp/kexp-slurm-test.XXXXXX)
chmod 755 "$tmp" # munged's socket lives below it
export KEXP_SLURM_DIR=$tmp/slurm
work=$tmp/work logs=$tmp/logs
mkdir -p "$work/configs" "$logs"

cleanup() {
  local rc=$?
  set +e
  if [[ -f $KEXP_SLURM_DIR/etc/slurm.conf ]]; then
    # `down` cancels the jobs of this private cluster, waits for them and stops only
    # the daemons that `up` started.
    "$src/scripts/slurm-local.sh" down >/dev/null
  fi
  rm -rf "$tmp"
  echo "job_array_test: $(elapsed) s"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A private port pair, so a Slurm already running here is left alone.
port=6817
while ss -Hltn | awk '{print $4}' | grep -Eq ":($port|$((port + 1)))\$"; do
  port=$((port + 2))
  ((port < 6917)) || skip "no free port pair for slurmctld and slurmd"
done
export KEXP_SLURM_PORT=$port

if ! "$src/scripts/slurm-local.sh" up >"$logs/up.txt" 2>&1; then
  cat "$logs/up.txt"
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    skip "slurm-wlm and munge are not installed and could not be installed"
  fi
  fail "scripts/slurm-local.sh up failed"
fi
export SLURM_CONF=$KEXP_SLURM_DIR/etc/slurm.conf
note "$(grep '^slurm-local: up' "$logs/up.txt")"
cgroups=false
grep -q '^TaskPlugin=task/cgroup' "$SLURM_CONF" && cgroups=true

# Jobs run kexp from PATH, as on a cluster; OpenBLAS stays at one thread per process.
PATH=$(dirname "$kexp_bin"):$PATH
export PATH
export OPENBLAS_NUM_THREADS=1
# The threads come from the job, not from this shell.
unset OMP_NUM_THREADS

# The guide's experiment scaled down: 28 cells × 2 repeats, each shard a few seconds.
cat >"$work/configs/poly-primal-vs-dual.yaml" <<'EOF'
experiment: poly-primal-vs-dual
seed: 7
repeats: 2
dataset:
  plugin: cubic
  n: [1500, 3000]
  d: 8
  noise: 0.1
  test_fraction: 0.2
kernels:
  - plugin: polynomial
    degree: [2, 3]
    c: 1.0
  - plugin: gaussian
    sigma: {logspace: [-1, 1, 3]}
solvers:
  - plugin: primal_ridge
    lambda: {logspace: [-6, 0, 2]}
  - plugin: kernel_ridge
    lambda: {logspace: [-6, 0, 2]}
output:
  dir: ../results/poly-primal-vs-dual
EOF
# One cell whose Gram matrix and cross block need about 1.4 GB.
cat >"$work/configs/big-cell.yaml" <<'EOF'
experiment: big-cell
seed: 1
repeats: 1
dataset:
  plugin: friedman1
  n: 15000
kernels:
  - plugin: gaussian
    sigma: 1.0
solvers:
  - plugin: kernel_ridge
    lambda: 0.001
output:
  dir: ../results/big-cell
EOF

cd "$work"
kexp run configs/poly-primal-vs-dual.yaml --dry-run >"$logs/dry-run.txt" ||
  fail "dry run failed: $(cat "$logs/dry-run.txt")"
# The planned cell ids: the dry run's lines that start with a cell id.
python3 - "$logs/dry-run.txt" >"$tmp/cells.txt" <<'EOF'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"\s*([0-9a-f]{8,})\s", line)
    if m:
        print(m.group(1))
EOF
cells=$(wc -l <"$tmp/cells.txt")
((cells == 28)) || fail "dry run lists $cells cells, not 28: $(cat "$logs/dry-run.txt")"

# Polls until none of the jobs is pending or running; at most $1 seconds.
wait_jobs() {
  local limit=$1 ids=$2 t0=$SECONDS
  while [[ -n $(squeue -h -j "$ids" -o %i 2>/dev/null) ]]; do
    ((SECONDS - t0 < limit)) || fail "jobs $ids still queued after ${limit}s: $(squeue -j "$ids")"
    sleep 0.25
  done
}
job_field() { scontrol show job "$1" -o | grep -o "$2=[^ ]*" | head -n 1 | cut -d= -f2; }
rows() { [[ -f $1 ]] && echo $(($(wc -l <"$1") - 1)) || echo 0; }

# 2. The array and the merge, as the guide submits them, scaled down.
submit_array() {
  sbatch --parsable --array=0-3 --cpus-per-task=1 --mem=1G --time=00:05:00 \
    --output="$logs/shard-%A_%a.out" "$script"
}
submit_merge() {
  sbatch --parsable --dependency=afterany:"$1" --mem=1G --output="$logs/merge-%j.out" \
    --wrap "$merge_cmd"
}
array=$(submit_array)
merge=$(submit_merge "$array")
note "array $array (4 shards) and merge $merge submitted"
# The memory checks run on the CPU a cancelled shard frees.
if $cgroups; then
  # shellcheck disable=SC2016 # $(nproc) runs in the job
  big=$(sbatch --parsable --mem=1G --output="$logs/big-cell.out" \
    --wrap 'echo "nproc $(nproc)"; kexp run configs/big-cell.yaml --dry-run && kexp run configs/big-cell.yaml')
fi

# 3. Cancel shard 0 once it has written a few rows.
shard0=results/poly-primal-vs-dual-shard-0-of-4
t0=$SECONDS
until (($(rows "$shard0/results.csv") >= 3)); do
  ((SECONDS - t0 < 45)) || fail "shard 0 wrote no rows in 45 s: $(cat "$logs"/shard-"${array}"_0.out)"
  sleep 0.1
done
scancel "${array}_0"
note "cancelled shard 0 after $(rows "$shard0/results.csv") rows"
wait_jobs 60 "$array,$merge"
grep -q 'CANCELLED' "$logs/shard-${array}_0.out" || fail "shard 0 was not cancelled"
python3 - "$shard0/manifest.json" <<'EOF' || fail "shard 0's manifest does not say it was stopped"
import json, sys
m = json.load(open(sys.argv[1]))
sys.exit(0 if m.get("stopped") else 1)
EOF
cut_rows=$(rows "$shard0/results.csv")
[[ $(job_field "$merge" ExitCode) == 1:0 ]] ||
  fail "the first merge should report the missing runs (exit 1): $(cat "$logs/merge-$merge.out")"
note "shard 0 stopped at $cut_rows rows; the first merge said: $(grep -m1 'missing' "$logs/merge-$merge.out")"

# 4. Submit again: shard 0 resumes, the others have nothing left to do.
array2=$(submit_array)
merge2=$(submit_merge "$array2")
wait_jobs 60 "$array2,$merge2"
grep -Eq "^[1-9][0-9]* runs?: .* $cut_rows kept from before" "$logs/shard-${array2}_0.out" ||
  fail "shard 0 did not resume: $(cat "$logs/shard-${array2}_0.out")"
for i in 1 2 3; do
  grep -Eq "^0 runs: .* [1-9][0-9]* kept from before" "$logs/shard-${array2}_$i.out" ||
    fail "shard $i did not keep its runs: $(cat "$logs/shard-${array2}_$i.out")"
done
for i in 0 1 2 3; do
  [[ $(job_field "${array2}_$i" ExitCode) == 0:0 ]] ||
    fail "shard $i of the resubmitted array: $(cat "$logs/shard-${array2}_$i.out")"
done
[[ $(job_field "$merge2" ExitCode) == 0:0 ]] || fail "merge: $(cat "$logs/merge-$merge2.out")"
note "resubmitted: $(grep -h 'kept from before' "$logs/shard-${array2}_0.out" | head -n 1)"
note "$(cat "$logs/merge-$merge2.out")"

python3 - results/poly-primal-vs-dual/results.csv "$tmp/cells.txt" 2 <<'EOF' || fail "merged results.csv"
import csv, sys
from collections import Counter
rows = list(csv.DictReader(open(sys.argv[1])))
cells = [c.strip() for c in open(sys.argv[2])]
repeats = int(sys.argv[3])
want = Counter((c, str(r)) for c in cells for r in range(repeats))
got = Counter((row["cell"], row["repeat"]) for row in rows)
bad = [r for r in rows if r["status"] != "ok"]
if got != want or bad:
    print("missing:", sorted(want - got), "extra:", sorted(got - want),
          "not ok:", [(r["cell"], r["repeat"], r["status"]) for r in bad])
    sys.exit(1)
print(f"merged results.csv: {len(rows)} rows = {len(cells)} cells x {repeats} repeats, each once, all ok")
EOF
kexp merge results/poly-primal-vs-dual-shard-*-of-4 --out "$tmp/merged-again" >/dev/null ||
  fail "kexp merge of the four shards exits $?"
# --cpus-per-task=1 and no --threads: one thread, from SLURM_CPUS_PER_TASK.
python3 - results/poly-primal-vs-dual-shard-*-of-4/manifest.json <<'EOF' || fail "shard threads"
import json, sys
for f in sys.argv[1:]:
    o = json.load(open(f))["options"]
    if o["threads"] != 1 or o["threads_source"] != "SLURM_CPUS_PER_TASK":
        print(f, o["threads"], o["threads_source"])
        sys.exit(1)
EOF

# 5. The memory budget inside --mem=1G.
if $cgroups; then
  wait_jobs 30 "$big"
  out=$(cat "$logs/big-cell.out")
  grep -Eq 'memory budget 8[0-9]{2} MB per cell \(80% of memory.limit_in_bytes of cgroup /slurm' <<<"$out" ||
    fail "the dry run inside --mem=1G does not show the job's budget: $out"
  note "dry run: $(grep -Eo 'memory budget [^)]*\)+' <<<"$out" | head -n 1)"
  [[ $(job_field "$big" ExitCode) == 1:0 ]] || fail "the big cell's job should exit 1: $out"
  python3 - results/big-cell/results.csv <<'EOF' || fail "the big cell was not refused: $out"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = (len(rows) == 1 and rows[0]["status"] == "refused"
      and re.search(r"memory budget of 8\d\d MB", rows[0]["error"])
      and "memory.limit_in_bytes of cgroup" in rows[0]["error"])
print(rows[0]["error"] if rows else "no row")
sys.exit(0 if ok else 1)
EOF
  # No --cpus-per-task: SLURM_CPUS_PER_TASK is unset, and the threads are the CPUs the
  # job may run on (the affinity mask Slurm gives it).
  nproc_line=$(grep -o '^nproc [0-9]*' <<<"$out")
  python3 - results/big-cell/manifest.json "${nproc_line#nproc }" <<'EOF' ||
import json, sys
o = json.load(open(sys.argv[1]))["options"]
nproc = int(sys.argv[2])
print(f"threads without --cpus-per-task: {o['threads']} ({o['threads_source']}), nproc {nproc}")
sys.exit(0 if o["threads"] == nproc and o["threads_source"] != "SLURM_CPUS_PER_TASK" else 1)
EOF
    fail "threads of a job without --cpus-per-task"
else
  echo "note: no cgroup v1 here, so Slurm does not limit memory and the budget checks are skipped"
fi
note "passed"
