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
