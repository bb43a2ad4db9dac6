// The reading of the libsvm dataset, from the text of its files to kexp::Data: libsvm.cpp
// gives it the files named in a config, tests/fuzz/libsvm_fuzz.cpp arbitrary bytes.
//
// The samples are stored dense, so the dimension and the matrix are bounded before any
// memory is taken for them: an index is at most `dimension` when that is set, otherwise at
// most `max_features`, and d × n × 8 bytes at most `max_matrix_bytes`.
#pragma once

#include <kexp/kexp.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datasets/text_reader.hpp"

namespace kexp_datasets {

/// The parameters of the libsvm dataset that shape the reading.
struct LibsvmOptions {
  std::size_t dimension = 0;  ///< 0: the largest index of the training file
  kexp::Task task = kexp::Task::Regression;
  NonFinitePolicy policy = NonFinitePolicy::Error;
  std::size_t max_features = 100000;
  std::uint64_t max_matrix_bytes = std::uint64_t{4} << 30;
  std::size_t stretch_bytes = kStretchBytes;  ///< of a stretch parsed on its own
};

/// One stored value: sample, feature index (from 0), value.
struct SparseEntry {
  std::uint32_t sample;
  std::uint32_t feature;
  double value;
};

/// The non-zero entries of a stretch of a file's lines; `sample` counts from the stretch's
/// first sample, `first_sample` among the file's.
struct SparseEntries {
  std::size_t first_sample = 0;
  std::vector<SparseEntry> entries;
};

/// A file's (or a stretch's) labels and non-zero entries, and the rows that have data and
/// those left out; `max_index` is its largest index (from 1), first found at
/// max_index_line:max_index_column.
struct SparseSamples {
  std::string file;
  std::vector<double> y;
  std::vector<LabelSource> label_sources;
  std::vector<SparseEntries> parts;  ///< in file order
  std::size_t max_index = 0;
  int max_index_line = 0, max_index_column = 0;
  std::size_t rows = 0;      ///< lines with data, left out or not
  std::vector<int> dropped;  ///< the lines left out under on_nonfinite: drop
};

/// What the text before a colon is as an index.
enum class IndexText { Index, TooLarge, NotAnIndex };

/// Reads the digits of `text` as an index; TooLarge when it exceeds `limit` (however many
/// digits it has: nothing overflows).
inline IndexText parse_index(std::string_view text, std::uint64_t limit, std::uint64_t& out) {
  if (text.empty()) return IndexText::NotAnIndex;
  out = 0;
  bool too_large = false;
  for (char c : text) {
    if (c < '0' || c > '9') return IndexText::NotAnIndex;
    if (!too_large) {
      out = out * 10 + static_cast<std::uint64_t>(c - '0');
      too_large = out > limit;
    }
  }
  return too_large ? IndexText::TooLarge : IndexText::Index;
}

/// The tokens of a line, separated by runs of spaces and tabs, one after the other.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : line_(line) {}

  /// The next token and its 1-based column; false at the end of the line.
  bool next(std::string_view& token, int& column) {
    auto blank = [](char c) { return c == ' ' || c == '\t'; };
    while (pos_ < line_.size() && blank(line_[pos_])) ++pos_;
    if (pos_ == line_.size()) return false;
    const std::size_t start = pos_;
    while (pos_ < line_.size() && !blank(line_[pos_])) ++pos_;
    token = line_.substr(start, pos_ - start);
    column = column_at(start);
    return true;
  }

 private:
  std::string_view line_;
  std::size_t pos_ = 0;
};

/// The lines of `file` from `start` to the byte `end` (a line's start or the end).
inline SparseSamples libsvm_stretch(const TextFile& file, const LibsvmOptions& o,
                                    LineReader::Mark start, std::size_t end) {
  SparseSamples s;
  s.file = file.name;
  const std::uint64_t limit = o.dimension > 0 ? o.dimension : o.max_features;
  std::vector<int>& dropped = s.dropped;
  std::size_t& rows = s.rows;
  std::vector<SparseEntry>& entries = s.parts.emplace_back().entries;
  // Every entry has a colon and takes at least 4 bytes ("1:1 "), so both bound the
  // entries: one allocation, where a growing vector would copy them again at every
  // doubling, and no more than 4 × the text even when comments are full of colons.
  const std::string_view text = file.text.substr(start.position, end - start.position);
  entries.reserve(std::min(static_cast<std::size_t>(std::count(text.begin(), text.end(), ':')),
                           text.size() / 4 + 1));
  LineReader lines(file, start, end);
  TextLine line;
  while (lines.next(line)) {
    const std::string_view content = line.text.substr(0, line.text.find('#'));
    Tokens tokens(content);
    std::string_view token;
    int label_column = 0;
    if (!tokens.next(token, label_column)) continue;  // a comment line
    ++rows;
    bool keep = true;
    auto nonfinite = [&](const kexp::SourceLocation& at, const std::string& what) {
      if (o.policy == NonFinitePolicy::Error) {
        throw kexp::DataError(at, nonfinite_message(what + " (not finite)"));
      }
      keep = false;
    };
    double label = 0;
    // The locations and texts of messages are made only for a message: a million lines are
    // read without a string built per value.
    const auto label_at = [&] { return kexp::SourceLocation{s.file, line.number, label_column}; };
    if (token.find(':') != std::string_view::npos) {
      throw kexp::DataError(label_at(), "the line starts with " + in_quotes(token) +
                                            ", not with a label; every line is <label> "
                                            "<index>:<value> …");
    }
    if (!parse_number(token, label)) {
      throw kexp::DataError(label_at(), "label " + in_quotes(token) + " is not a number");
    }
    if (!std::isfinite(label)) nonfinite(label_at(), "label " + std::string(token));
    const std::size_t row_start = entries.size();  // the row's entries go from here
    std::uint64_t previous = 0;
    int column = 0;
    while (tokens.next(token, column)) {
      const auto at = [&] { return kexp::SourceLocation{s.file, line.number, column}; };
      const auto colon = token.find(':');
      if (colon == std::string_view::npos) {
        throw kexp::DataError(at(), in_quotes(token) + " is not <index>:<value>");
      }
      const std::string_view index_text = token.substr(0, colon);
      const std::string_view value_text = token.substr(colon + 1);
      std::uint64_t index = 0;
      const IndexText kind = parse_index(index_text, limit, index);
      if (kind == IndexText::NotAnIndex || (kind == IndexText::Index && index == 0)) {
        throw kexp::DataError(at(), "index " + in_quotes(index_text) +
                                        " is not a whole number ≥ 1 (LIBSVM indices count from 1)");
      }
      const auto shown = [&] {
        return kind == IndexText::Index || index_text.size() <= 40 ? std::string(index_text)
                                                                   : in_quotes(index_text);
      };
      if (kind == IndexText::TooLarge && o.dimension > 0) {
        throw kexp::DataError(at(), "index " + shown() + " is beyond dimension " +
                                        std::to_string(o.dimension) +
                                        "; raise dimension, or set it to 0 to take the largest "
                                        "index of the training file");
      }
      if (kind == IndexText::TooLarge) {
        throw kexp::DataError(
            at(), "index " + shown() + " is beyond max_features, " +
                      std::to_string(o.max_features) +
                      "; the samples are stored dense, with a row for every index up to the "
                      "largest: set max_features in the dataset block if the data has that many "
                      "features");
      }
      if (index <= previous) {
        throw kexp::DataError(at(), "index " + std::to_string(index) +
                                        " is not greater than the index before it on this line (" +
                                        std::to_string(previous) +
                                        "); indices must increase along a line, each at most once");
      }
      previous = index;
      double value = 0;
      const auto value_at = [&] {
        return kexp::SourceLocation{s.file, line.number,
                                    column_at(static_cast<std::size_t>(column - 1) + colon + 1)};
      };
      if (!parse_number(value_text, value)) {
        throw kexp::DataError(value_at(), "value " + in_quotes(value_text) + " of index " +
                                              std::string(index_text) + " is not a number");
      }
      if (!std::isfinite(value)) nonfinite(value_at(), "value " + std::string(value_text));
      if (index > s.max_index) {
        s.max_index = static_cast<std::size_t>(index);
        s.max_index_line = line.number;
        s.max_index_column = column;
      }
      entries.push_back(
          {static_cast<std::uint32_t>(s.y.size()), static_cast<std::uint32_t>(index - 1), value});
    }
    if (!keep) {
      entries.resize(row_start);
      dropped.push_back(line.number);
      continue;
    }
    s.y.push_back(label);
    s.label_sources.push_back({line.number, label_column});
  }
  return s;
}

/// The labels and entries of `file`: its stretches of about `o.stretch_bytes` read in
/// parallel (read_in_parallel).
inline SparseSamples libsvm_samples(const TextFile& file, const LibsvmOptions& o) {
  const std::vector<Stretch> stretched = stretches(file, LineReader::Mark{}, o.stretch_bytes);
  std::vector<SparseSamples> parts(stretched.size());
  read_in_parallel(stretched.size(), [&](std::size_t k) {
    parts[k] = libsvm_stretch(file, o, stretched[k].start, stretched[k].end);
  });
  SparseSamples s;
  s.file = file.name;
  for (SparseSamples& part : parts) {
    part.parts.front().first_sample = s.y.size();
    s.parts.push_back(std::move(part.parts.front()));
    s.y.insert(s.y.end(), part.y.begin(), part.y.end());
    s.label_sources.insert(s.label_sources.end(), part.label_sources.begin(),
                           part.label_sources.end());
    if (part.max_index > s.max_index) {
      s.max_index = part.max_index;
      s.max_index_line = part.max_index_line;
      s.max_index_column = part.max_index_column;
    }
    s.rows += part.rows;
    s.dropped.insert(s.dropped.end(), part.dropped.begin(), part.dropped.end());
  }
  report_dropped("libsvm", s.file, s.dropped, s.rows);
  if (s.rows == 0) {
    throw kexp::DataError(kexp::SourceLocation{s.file, 0, 0},
                          "the file has only comments; it needs at least one line of data");
  }
  if (s.y.empty()) {
    throw kexp::DataError(kexp::SourceLocation{s.file, 0, 0},
                          "every line has a NaN or Inf value, so none is left");
  }
  return s;
}

/// Throws if n samples of dimension d, stored dense, take more than `max_bytes`.
inline void check_matrix_bytes(const std::string& file, std::size_t d, std::size_t n,
                               std::uint64_t max_bytes) {
  if (n == 0 || d <= max_bytes / 8 / n) return;  // d × n × 8 ≤ max_bytes, without overflow
  const std::uint64_t cells = static_cast<std::uint64_t>(d) * n;  // d, n < 2³¹
  const std::uint64_t bytes = cells > std::numeric_limits<std::uint64_t>::max() / 8
                                  ? std::numeric_limits<std::uint64_t>::max()
                                  : cells * 8;
  throw kexp::DataError(
      kexp::SourceLocation{file, 0, 0},
      "the samples stored dense take " + byte_count(bytes) + " (d = " + std::to_string(d) +
          " features × n = " + std::to_string(n) + " samples × 8 bytes), more than " +
          "max_matrix_bytes, " + byte_count(max_bytes) +
          "; set max_matrix_bytes in the dataset block to allow more, or lower the dimension");
}

inline arma::mat libsvm_dense(const SparseSamples& s, std::size_t d) {
  arma::mat X(d, s.y.size(), arma::fill::none);
  kexp::advise_huge_pages(X);
  X.zeros();
#pragma omp parallel for schedule(dynamic, 1) num_threads(kexp::thread_count())
  for (std::size_t k = 0; k < s.parts.size(); ++k) {  // each part has its own columns
    const SparseEntries& part = s.parts[k];
    for (const SparseEntry& e : part.entries) X(e.feature, part.first_sample + e.sample) = e.value;
  }
  return X;
}

/// The data set of a training file and, if `read_test` gives one, a test file.
inline kexp::Data libsvm_data(const TextFile& train_file, const ReadTestFile& read_test,
                              const LibsvmOptions& o) {
  SparseSamples train = libsvm_samples(train_file, o);
  const std::size_t d = o.dimension > 0 ? o.dimension : train.max_index;
  if (d == 0) {
    throw kexp::DataError(kexp::SourceLocation{train.file, 0, 0},
                          "no line has a feature (<index>:<value>), so the dimension is 0; set "
                          "dimension if every feature of the data is 0");
  }
  std::optional<SparseSamples> test;
  if (const std::optional<TextFile> test_file = read_test()) {
    test = libsvm_samples(*test_file, o);
    if (test->max_index > d) {
      throw kexp::DataError(
          kexp::SourceLocation{test->file, test->max_index_line, test->max_index_column},
          "index " + std::to_string(test->max_index) +
              " is beyond the dimension of the training set, " + std::to_string(d) +
              " (its largest index); set dimension: " + std::to_string(test->max_index) +
              " (or more) to give both files that dimension");
    }
  }
  if (o.task == kexp::Task::Classification) {
    const auto labels = binary_labels(train.y, train.file);
    map_labels(train.y, train.label_sources, train.file, labels, train.file);
    if (test) map_labels(test->y, test->label_sources, test->file, labels, train.file);
  }
  check_matrix_bytes(train.file, d, train.y.size() + (test ? test->y.size() : 0),
                     o.max_matrix_bytes);
  kexp::Data data;
  data.task = o.task;
  data.X = libsvm_dense(train, d);
  data.y = arma::vec(train.y);
  if (test) {
    data.has_test = true;
    data.X_test = libsvm_dense(*test, d);
    data.y_test = arma::vec(test->y);
  }
  return data;
}

}  // namespace kexp_datasets
