// libsvm: a data set in the sparse text format of LIBSVM and SVMlight.
//
// One sample per line:  <label> <index>:<value> <index>:<value> …   with indices counted
// from 1 and strictly increasing along the line; an index that does not appear has the
// value 0. Text from '#' to the end of a line is a comment; blank lines are skipped.
//
// The dimension d is the largest index in the training file, or `dimension` when it is
// set (> 0), in which case every index must be ≤ dimension. A `test` file is the test set
// as it is, in its row order, padded with zeros to d. An index in the test file beyond d
// is an error, never silently dropped: set `dimension` to cover both files.
//
// The samples are stored dense (d × n). A NaN or ±Inf label or value is an error, or with
// `on_nonfinite: drop` its line is left out and the count reported on stderr. With
// `task: classification` the labels of the training file must take exactly two values:
// the smaller becomes −1, the larger +1.
#include <kexp/kexp.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datasets/text_reader.hpp"

namespace {

using kexp::DataError;
using kexp::SourceLocation;
using kexp_datasets::NonFinitePolicy;

/// One stored value: sample, feature index (from 0), value.
struct Entry {
  std::size_t sample;
  std::size_t feature;
  double value;
};

/// A file's labels and non-zero entries; `max_index` is its largest index (from 1).
struct Sparse {
  std::string file;
  std::vector<double> y;
  std::vector<kexp_datasets::LabelSource> label_sources;
  std::vector<Entry> entries;
  std::size_t max_index = 0;
  int max_index_line = 0, max_index_column = 0;
};

/// Reads the digits of `text` as an index ≥ 1; false when it is not one.
bool parse_index(std::string_view text, std::uint64_t& out) {
  if (text.empty() || text.size() > 15) return false;
  out = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

Sparse read_sparse(const kexp::DatasetContext& context, const std::string& key,
                   const std::string& given, NonFinitePolicy policy, std::size_t dimension) {
  const auto file =
      kexp_datasets::read_text_file(kexp_datasets::resolve(context, given), key, given);
  Sparse s;
  s.file = file.name;
  std::vector<int> dropped;
  std::vector<Entry> row;
  std::size_t rows = 0;
  for (const auto& line : file.lines) {
    kexp_datasets::TextLine content = line;
    const auto hash = content.text.find('#');
    if (hash != std::string::npos) content.text.erase(hash);
    const auto tokens = kexp_datasets::split_fields(content, 0, s.file);
    if (tokens.empty()) continue;  // a comment line
    ++rows;
    bool keep = true;
    auto nonfinite = [&](const SourceLocation& at, const std::string& what) {
      if (policy == NonFinitePolicy::Error) {
        throw DataError(at, kexp_datasets::nonfinite_message(what + " (not finite)"));
      }
      keep = false;
    };
    double label = 0;
    const SourceLocation label_at{s.file, line.number, tokens[0].column};
    if (tokens[0].text.find(':') != std::string::npos) {
      throw DataError(label_at, "the line starts with '" + tokens[0].text +
                                    "', not with a label; every line is <label> "
                                    "<index>:<value> …");
    }
    if (!kexp_datasets::parse_number(tokens[0].text, label)) {
      throw DataError(label_at, "label '" + tokens[0].text + "' is not a number");
    }
    if (!std::isfinite(label)) nonfinite(label_at, "label " + tokens[0].text);
    row.clear();
    std::uint64_t previous = 0;
    for (std::size_t k = 1; k < tokens.size(); ++k) {
      const auto& t = tokens[k];
      const SourceLocation at{s.file, line.number, t.column};
      const auto colon = t.text.find(':');
      if (colon == std::string::npos) {
        throw DataError(at, "'" + t.text + "' is not <index>:<value>");
      }
      const std::string index_text = t.text.substr(0, colon);
      const std::string value_text = t.text.substr(colon + 1);
      std::uint64_t index = 0;
      if (!parse_index(index_text, index) || index == 0) {
        throw DataError(at, "index '" + index_text +
                                "' is not a whole number ≥ 1 (LIBSVM indices count from 1)");
      }
      if (index <= previous) {
        throw DataError(at, "index " + std::to_string(index) +
                                " is not greater than the index before it on this line (" +
                                std::to_string(previous) +
                                "); indices must increase along a line, each at most once");
      }
      if (dimension > 0 && index > dimension) {
        throw DataError(at, "index " + std::to_string(index) + " is beyond dimension " +
                                std::to_string(dimension) +
                                "; raise dimension, or set it to 0 to take the largest index of "
                                "the training file");
      }
      previous = index;
      double value = 0;
      const SourceLocation value_at{s.file, line.number, t.column + static_cast<int>(colon) + 1};
      if (!kexp_datasets::parse_number(value_text, value)) {
        throw DataError(value_at,
                        "value '" + value_text + "' of index " + index_text + " is not a number");
      }
      if (!std::isfinite(value)) nonfinite(value_at, "value " + value_text);
      if (index > s.max_index) {
        s.max_index = static_cast<std::size_t>(index);
        s.max_index_line = line.number;
        s.max_index_column = t.column;
      }
      row.push_back({s.y.size(), static_cast<std::size_t>(index - 1), value});
    }
    if (!keep) {
      dropped.push_back(line.number);
      continue;
    }
    s.entries.insert(s.entries.end(), row.begin(), row.end());
    s.y.push_back(label);
    s.label_sources.push_back({s.file, line.number, tokens[0].column});
  }
  kexp_datasets::report_dropped("libsvm", s.file, dropped, rows);
  if (rows == 0) {
    throw DataError(SourceLocation{s.file, 0, 0},
                    "the file has only comments; it needs at least one line of data");
  }
  if (s.y.empty()) {
    throw DataError(SourceLocation{s.file, 0, 0},
                    "every line has a NaN or Inf value, so none is left");
  }
  return s;
}

arma::mat dense(const Sparse& s, std::size_t d) {
  arma::mat X(d, s.y.size(), arma::fill::zeros);
  for (const Entry& e : s.entries) X(e.feature, e.sample) = e.value;
  return X;
}

class LibsvmDataset final : public kexp::Dataset {
 public:
  explicit LibsvmDataset(const kexp::Params& p)
      : train_(p.string("train")),
        test_(p.string("test")),
        dimension_(static_cast<std::size_t>(p.integer("dimension"))),
        task_(kexp_datasets::task_of(p)),
        policy_(kexp_datasets::nonfinite_policy(p)) {}

  kexp::Data load(const kexp::DatasetContext& context) const override {
    Sparse train = read_sparse(context, "train", train_, policy_, dimension_);
    const std::size_t d = dimension_ > 0 ? dimension_ : train.max_index;
    if (d == 0) {
      throw DataError(SourceLocation{train.file, 0, 0},
                      "no line has a feature (<index>:<value>), so the dimension is 0; set "
                      "dimension if every feature of the data is 0");
    }
    std::optional<Sparse> test;
    if (!test_.empty()) {
      test = read_sparse(context, "test", test_, policy_, dimension_);
      if (test->max_index > d) {
        throw DataError(
            SourceLocation{test->file, test->max_index_line, test->max_index_column},
            "index " + std::to_string(test->max_index) +
                " is beyond the dimension of the training set, " + std::to_string(d) +
                " (its largest index); set dimension: " + std::to_string(test->max_index) +
                " (or more) to give both files that dimension");
      }
    }
    if (task_ == kexp::Task::Classification) {
      const auto labels = kexp_datasets::binary_labels(train.y, train.file);
      kexp_datasets::map_labels(train.y, train.label_sources, labels, train.file);
      if (test) kexp_datasets::map_labels(test->y, test->label_sources, labels, train.file);
    }
    kexp::Data data;
    data.task = task_;
    data.X = dense(train, d);
    data.y = arma::vec(train.y);
    if (test) {
      data.has_test = true;
      data.X_test = dense(*test, d);
      data.y_test = arma::vec(test->y);
    }
    return data;
  }

 private:
  std::string train_, test_;
  std::size_t dimension_;
  kexp::Task task_;
  NonFinitePolicy policy_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::string("train", nullptr, "training file, relative to the config file"),
    kexp::param::string("test", "",
                        "test file, used as the test set as it is (default: none, the "
                        "runner splits off test_fraction of the training file)"),
    kexp::param::integer("dimension", "0",
                         "number of features; 0: the largest index of the training file (a "
                         "larger index in the test file is an error)")
        .at_least(0)
        .at_most(1e7),
    kexp::param::choice("task", "regression", "regression|classification",
                        "classification maps the two label values to −1 (smaller) and +1"),
    kexp::param::choice("on_nonfinite", "error", "error|drop",
                        "a line with a NaN or Inf label or value: an error, or dropped and "
                        "counted on stderr"),
};

constexpr kexp::PluginInfo kInfo{
    "libsvm", "1.0.0", "LIBSVM sparse text: <label> <index>:<value> …, indices from 1", kParams,
    kexp::flags::regression | kexp::flags::classification | kexp::flags::reads_files};

}  // namespace

KEXP_PLUGIN(LibsvmDataset, kInfo)
