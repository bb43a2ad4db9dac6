#!/usr/bin/env bash
# Runs the pandas recipe of docs/guide/result-folder.md, as written, on the results.csv of
# a small run of configs/quickstart.yaml, and checks that it prints the time of both forms
# at each number of training points.
#   pandas_recipe_test.sh KEXP SOURCE_DIR
set -euo pipefail
kexp=$1 src=$2
python=/usr/bin/python3
"$python" -c 'import pandas' 2>/dev/null || { echo "skipped: python3-pandas is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/results"
"$kexp" run "$src/configs/quickstart.yaml" --out "$work/results/quickstart" --quiet \
  --set dataset.n=100,200,400 >/dev/null
# The block after the recipe's marker, up to its closing fence.
awk '/<!-- recipe: pandas/ {found = 1; next}
     found && /^```python/ {inside = 1; next}
     inside && /^```/ {exit}
     inside {print}' "$src/docs/guide/result-folder.md" >"$work/recipe.py"
[[ -s $work/recipe.py ]] || { echo "FAIL: no pandas recipe found in docs/guide/result-folder.md"; exit 1; }
out=$(cd "$work" && "$python" recipe.py)
echo "$out"
for want in form dual primal 80 160 320; do
  grep -q "$want" <<<"$out" || { echo "FAIL: the recipe's output lacks '$want'"; exit 1; }
done
# Three sizes, each with a time for both forms: four lines below the header.
[[ $(grep -cE '^ *(80|160|320) +[0-9.e-]+ +[0-9.e-]+ *$' <<<"$out") -eq 3 ]] ||
  { echo "FAIL: expected a primal and a dual time at n_train = 80, 160 and 320"; exit 1; }
