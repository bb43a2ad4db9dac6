// csv: a data set read from delimited text files, one sample per row.
//
// `train` (and the optional `test`) are paths relative to the config file. Every row has
// the same number of fields; one column is the target (`target`: a column name from the
// header, or an index counted from 0, negative from the end; default the last column), the
// others are the features, in file order. A `test` file is the test set as it is, in its
// row order: it needs the same columns as the training file (the same names when both
// have a header).
//
// The first line is a header when `header: true`, or with `header: auto` when none of its
// fields is a number. Fields are separated by `delimiter` (`,` `;` `tab`, or `whitespace`
// for runs of spaces and tabs); with a one-character delimiter a field may be quoted as in
// RFC 4180. Blank lines are skipped. Numbers are read in the C locale.
//
// A field that is empty or NA is missing; a missing, NaN or ±Inf value is an error, or with
// `on_nonfinite: drop` its row is left out and the count reported on stderr. With
// `task: classification` the target must take exactly two values in the training set: the
// smaller becomes −1, the larger +1.
#include <kexp/kexp.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datasets/text_reader.hpp"

namespace {

using kexp::DataError;
using kexp::SourceLocation;
using kexp_datasets::Field;
using kexp_datasets::NonFinitePolicy;
using kexp_datasets::TextFile;

char delimiter_char(const std::string& name) {
  if (name == "tab") return '\t';
  if (name == "whitespace") return 0;
  return name.front();
}

std::string delimiter_name(char c) {
  if (c == '\t') return "tab";
  if (c == 0) return "whitespace";
  return std::string("'") + c + "'";
}

/// A file split into fields, with its header if it has one.
struct Table {
  TextFile file;
  std::vector<std::vector<Field>> rows;  ///< data rows (the header left out)
  std::vector<int> row_lines;            ///< line number of each data row
  std::vector<Field> header;             ///< empty without a header
  int header_line = 0;
  std::size_t width = 0;
};

bool all_text(const std::vector<Field>& fields) {
  bool any_text = false;
  for (const Field& f : fields) {
    double v = 0;
    if (kexp_datasets::parse_number(f.text, v)) return false;
    if (!kexp_datasets::is_missing(f.text)) any_text = true;
  }
  return any_text;
}

Table read_table(const kexp::DatasetContext& context, const std::string& key,
                 const std::string& given, char delimiter, const std::string& header) {
  Table t;
  t.file = kexp_datasets::read_text_file(kexp_datasets::resolve(context, given), key, given);
  const std::string& name = t.file.name;
  std::vector<std::vector<Field>> all;
  for (const auto& line : t.file.lines)
    all.push_back(kexp_datasets::split_fields(line, delimiter, name));
  const bool has_header = header == "true" || (header == "auto" && all_text(all.front()));
  t.width = all.front().size();
  if (has_header) {
    t.header = all.front();
    t.header_line = t.file.lines.front().number;
  }
  for (std::size_t i = has_header ? 1 : 0; i < all.size(); ++i) {
    const int line = t.file.lines[i].number;
    if (all[i].size() != t.width) {
      std::string message = "this row has " + std::to_string(all[i].size()) + " fields, line " +
                            std::to_string(t.file.lines.front().number) + " has " +
                            std::to_string(t.width) + "; every row needs the same number";
      message += " (the delimiter is " + delimiter_name(delimiter) + ")";
      throw DataError(SourceLocation{name, line, 0}, message);
    }
    t.rows.push_back(std::move(all[i]));
    t.row_lines.push_back(line);
  }
  if (t.rows.empty()) {
    throw DataError(SourceLocation{name, t.header_line, 0},
                    "the file has a header but no rows of data (" + key + ": " + given + ")");
  }
  if (t.width < 2) {
    throw DataError(SourceLocation{name, t.file.lines.front().number, 0},
                    "a row has one field, but a data set needs at least two columns (features "
                    "and the target); is the delimiter right? It is " +
                        delimiter_name(delimiter));
  }
  return t;
}

std::string column_list(const Table& t) {
  std::string list;
  for (std::size_t j = 0; j < t.header.size(); ++j)
    list += (j ? ", " : "") + ("'" + t.header[j].text + "'");
  return list;
}

/// The index of the target column in `t`.
std::size_t target_column(const Table& t, const std::string& target) {
  if (target.empty()) return t.width - 1;
  for (std::size_t j = 0; j < t.header.size(); ++j) {
    if (t.header[j].text == target) return j;
  }
  double v = 0;
  const auto w = static_cast<std::int64_t>(t.width);
  if (kexp_datasets::parse_number(target, v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    const auto index = static_cast<std::int64_t>(v);
    if (index >= -w && index < w) return static_cast<std::size_t>(index < 0 ? index + w : index);
    throw DataError(SourceLocation{t.file.name, t.file.lines.front().number, 0},
                    "target column " + target + " does not exist: the file has " +
                        std::to_string(t.width) + " columns, indexed 0 to " +
                        std::to_string(t.width - 1) + " (or -1 for the last)");
  }
  std::string message = "target column '" + target + "' does not exist; ";
  message += t.header.empty() ? "the file has no header, so name the column by its index (0 to " +
                                    std::to_string(t.width - 1) + ", or -1 for the last)"
                              : "the columns are " + column_list(t);
  throw DataError(SourceLocation{t.file.name, t.file.lines.front().number, 0}, message);
}

/// Numbers of a table: features (row-major, by sample) and targets, the rows with a
/// missing or non-finite value left out under on_nonfinite: drop.
struct Parsed {
  std::vector<double> features;
  std::vector<double> y;
  std::vector<kexp_datasets::LabelSource> label_sources;
  std::size_t n = 0;
};

Parsed parse_rows(const Table& t, std::size_t target, NonFinitePolicy policy) {
  Parsed p;
  const std::string& name = t.file.name;
  std::vector<int> dropped;
  std::vector<double> row(t.width);
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const int line = t.row_lines[i];
    bool keep = true;
    for (std::size_t j = 0; j < t.width; ++j) {
      const Field& f = t.rows[i][j];
      const SourceLocation at{name, line, f.column};
      const std::string field = "field " + std::to_string(j + 1);
      if (kexp_datasets::is_missing(f.text)) {
        if (policy == NonFinitePolicy::Error) {
          throw DataError(
              at, kexp_datasets::nonfinite_message(
                      field + (f.text.empty() ? " is empty" : " is NA") + " (a missing value)"));
        }
        keep = false;
        continue;
      }
      if (!kexp_datasets::parse_number(f.text, row[j])) {
        std::string message = field + " '" + f.text + "' is not a number";
        if (t.header.empty() && line == t.file.lines.front().number) {
          message += " (if line " + std::to_string(line) + " is a header, set header: true)";
        } else {
          message += "; every field must be a number in the C locale (a point for decimals)";
        }
        throw DataError(at, message);
      }
      if (!std::isfinite(row[j])) {
        if (policy == NonFinitePolicy::Error) {
          throw DataError(
              at, kexp_datasets::nonfinite_message(field + " is " + f.text + " (not finite)"));
        }
        keep = false;
      }
    }
    if (!keep) {
      dropped.push_back(line);
      continue;
    }
    for (std::size_t j = 0; j < t.width; ++j) {
      if (j != target) p.features.push_back(row[j]);
    }
    p.y.push_back(row[target]);
    p.label_sources.push_back({name, line, t.rows[i][target].column});
    ++p.n;
  }
  kexp_datasets::report_dropped("csv", name, dropped, t.rows.size());
  if (p.n == 0) {
    throw DataError(SourceLocation{name, 0, 0},
                    "every row has a NaN, Inf or missing value, so none is left");
  }
  return p;
}

arma::mat to_matrix(const std::vector<double>& features, std::size_t d, std::size_t n) {
  // features holds sample after sample: exactly the column-major layout of a d × n matrix.
  return arma::mat(features.data(), d, n);
}

class CsvDataset final : public kexp::Dataset {
 public:
  explicit CsvDataset(const kexp::Params& p)
      : train_(p.string("train")),
        test_(p.string("test")),
        target_(p.string("target")),
        header_(p.string("header")),
        delimiter_(delimiter_char(p.string("delimiter"))),
        task_(kexp_datasets::task_of(p)),
        policy_(kexp_datasets::nonfinite_policy(p)) {}

  kexp::Data load(const kexp::DatasetContext& context) const override {
    const Table train = read_table(context, "train", train_, delimiter_, header_);
    const std::size_t target = target_column(train, target_);
    Parsed tr = parse_rows(train, target, policy_);
    const std::size_t d = train.width - 1;

    kexp::Data data;
    data.task = task_;
    for (std::size_t j = 0; j < train.header.size(); ++j) {
      if (j != target) data.feature_names.push_back(train.header[j].text);
    }
    std::optional<Parsed> te;
    if (!test_.empty()) {
      const Table test = read_table(context, "test", test_, delimiter_, header_);
      check_same_columns(train, test);
      te = parse_rows(test, target, policy_);
    }
    if (task_ == kexp::Task::Classification) {
      const auto labels = kexp_datasets::binary_labels(tr.y, train.file.name);
      kexp_datasets::map_labels(tr.y, tr.label_sources, labels, train.file.name);
      if (te) kexp_datasets::map_labels(te->y, te->label_sources, labels, train.file.name);
    }
    data.X = to_matrix(tr.features, d, tr.n);
    data.y = arma::vec(tr.y);
    if (te) {
      data.has_test = true;
      data.X_test = to_matrix(te->features, d, te->n);
      data.y_test = arma::vec(te->y);
    }
    return data;
  }

 private:
  static void check_same_columns(const Table& train, const Table& test) {
    const int first = test.file.lines.front().number;
    if (test.width != train.width) {
      throw DataError(SourceLocation{test.file.name, first, 0},
                      "the test file has " + std::to_string(test.width) +
                          " columns, the training file " + train.file.name + " has " +
                          std::to_string(train.width) + "; both need the same columns");
    }
    if (train.header.empty() || test.header.empty()) return;
    for (std::size_t j = 0; j < train.width; ++j) {
      if (train.header[j].text != test.header[j].text) {
        throw DataError(SourceLocation{test.file.name, test.header_line, test.header[j].column},
                        "column " + std::to_string(j + 1) + " is named '" + test.header[j].text +
                            "', in the training file " + train.file.name + " '" +
                            train.header[j].text +
                            "'; both files need the same columns in the same order");
      }
    }
  }

  std::string train_, test_, target_, header_;
  char delimiter_;
  kexp::Task task_;
  NonFinitePolicy policy_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::string("train", nullptr, "training file, relative to the config file"),
    kexp::param::string("test", "",
                        "test file, used as the test set as it is (default: none, the "
                        "runner splits off test_fraction of the training file)"),
    kexp::param::string("target", "",
                        "target column: a header name, or an index from 0 (negative: from "
                        "the end); default the last column"),
    kexp::param::choice("header", "auto", "auto|true|false",
                        "whether the first line is a header; auto: when none of its fields "
                        "is a number"),
    kexp::param::choice("delimiter", ",", ",|;|tab|whitespace",
                        "field separator; whitespace: runs of spaces and tabs"),
    kexp::param::choice("task", "regression", "regression|classification",
                        "classification maps the two target values to −1 (smaller) and +1"),
    kexp::param::choice("on_nonfinite", "error", "error|drop",
                        "a row with NaN, Inf or a missing value (empty, NA): an error, or "
                        "dropped and counted on stderr"),
};

constexpr kexp::PluginInfo kInfo{
    "csv", "1.0.0", "rows of a delimited text file; one column is the target", kParams,
    kexp::flags::regression | kexp::flags::classification | kexp::flags::reads_files};

}  // namespace

KEXP_PLUGIN(CsvDataset, kInfo)
