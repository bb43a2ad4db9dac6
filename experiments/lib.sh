# Shell functions the experiments' run.sh scripts share: `. experiments/lib.sh`.

# results.csv as tab-separated fields (RFC 4180 quoting undone: a field may hold a comma).
csv_to_tsv() {
  awk '{
    out = ""; field = ""; quoted = 0
    for (i = 1; i <= length($0); i++) {
      c = substr($0, i, 1)
      if (quoted) {
        if (c == "\"") { if (substr($0, i + 1, 1) == "\"") { field = field c; i++ } else quoted = 0 }
        else field = field c
      } else if (c == "\"") quoted = 1
      else if (c == ",") { out = out field "\t"; field = "" }
      else field = field c
    }
    print out field
  }' "$1"
}

# The folder a run.sh writes its report to: the committed report/ with --update, else a
# scratch folder results/<experiment> (KEXP_SCRATCH names another parent folder), so that
# a regeneration does not overwrite what is committed until asked to.
#   report=$(report_folder "$here" "$@")
report_folder() {
  local here=$1
  shift
  local arg
  for arg in "$@"; do
    if [[ $arg == --update ]]; then
      echo "$here/report"
      return
    fi
  done
  echo "${KEXP_SCRATCH:-results}/$(basename "$here")"
}

# After a regeneration into a scratch folder: `kexp diff` of every run the committed
# report holds (report/ and each result folder below it) against the one regenerated.
# Results must be the same (the script fails if one is not, after comparing them all);
# times are compared against their measured range and only reported.
#   compare_with_committed "$here" "$report" "$kexp"
compare_with_committed() {
  local here=$1 report=$2 kexp=$3 status=0 folder rel
  [[ $report == "$here/report" ]] && return 0
  while IFS= read -r folder; do
    rel=${folder#"$here/report"}
    echo "compared with the committed report ($here/report$rel):"
    "$kexp" diff "$here/report$rel" "$report$rel" --limit 10 || status=1
  done < <(find "$here/report" -name results.csv -printf '%h\n' | sort)
  return $status
}

# The README's provenance line must name the kexp version and the commit that wrote the
# committed report (report/manifest.json, or the first manifest below report/): "kexp
# 5.6.0 at commit 2d2a74e"; a report without a manifest records the version alone in
# report/version.txt. Fails (returns 1) naming what it found otherwise. With --update
# (the report just written is the committed one) it says what the README must name.
#   check_provenance "$here" "$report"
check_provenance() {
  local here=$1 report=${2:-} manifest version commit wanted
  manifest=$(find "$here/report" -name manifest.json | sort | head -1)
  if [[ -n $manifest ]]; then
    version=$(sed -n 's/^ *"kexp_version": "\([^"]*\)".*/\1/p' "$manifest" | head -1)
    commit=$(sed -n 's/^ *"git_commit": "\([0-9a-f]\{7\}\).*/\1/p' "$manifest" | head -1)
    wanted="kexp $version at commit $commit"
  elif [[ -s $here/report/version.txt ]]; then
    manifest=$here/report/version.txt
    wanted=$(head -1 "$manifest")
  else
    echo "provenance: no manifest.json or version.txt under $here/report" >&2
    return 1
  fi
  if [[ $report == "$here/report" ]]; then
    echo "provenance: $here/README.md must name \"$wanted\" (report/ was just written)"
    return 0
  fi
  if grep -q "$wanted" "$here/README.md"; then
    echo "provenance: $here/README.md names $wanted, as $manifest does"
    return 0
  fi
  echo "provenance: $here/README.md does not name \"$wanted\", which wrote $manifest" >&2
  return 1
}

# A claim of a README checked on this run: its value against the range the README states
# for it (low and high included), said on stdout; claims_hold fails if one did not hold.
#   claim "crossover of ridge at D = 816, n/D" 2.04 1.2 2.9
#   claims_hold
claims_failed=0
claim() {
  local what=$1 value=$2 low=$3 high=$4
  if awk -v v="$value" -v lo="$low" -v hi="$high" 'BEGIN { exit !(v != "" && v + 0 == v && v >= lo && v <= hi) }'; then
    echo "claim holds: $what = $value (stated: $low … $high)"
  else
    echo "claim FAILS: $what = ${value:-(none)} (stated: $low … $high)" >&2
    claims_failed=$((claims_failed + 1))
  fi
}
claims_hold() {
  if [[ $claims_failed -gt 0 ]]; then
    echo "run.sh: $claims_failed claim(s) of the README did not hold on this run" >&2
    return 1
  fi
}

# A table of a summary.md by its heading ("Crossover in n"), as tab-separated lines, its
# header first; a cell's "\|" becomes "¦".
#   summary_table "$report/summary.md" "Crossover in n"
summary_table() {
  sed -n "/^## $2\$/,/^## /p" "$1" | grep '^| ' | sed 's/\\|/¦/g; s/^| //; s/ |$//; s/ | /\t/g'
}

# The named columns of tab-separated lines with a header (summary_table's, csv_to_tsv's),
# in that order, without the header; a column the header lacks is empty.
#   summary_table "$summary" "Crossover in n" | pick primal D "flops predict"
pick() {
  awk -F'\t' -v names="$(printf '%s\t' "$@")" '
    BEGIN { n = split(names, want, "\t") - 1 }
    NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
    { line = ""
      for (j = 1; j <= n; j++) line = line (j > 1 ? "\t" : "") ((want[j] in at) ? $at[want[j]] : "")
      print line }'
}
