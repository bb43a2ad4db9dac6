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
