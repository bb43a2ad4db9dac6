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
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/labels.hpp"
#include "common/text_fields.hpp"
#include "common/text_file.hpp"

namespace kexp_datasets {

/// The parameters of the libsvm dataset that shape the reading.
struct LibsvmOptions {
  std::size_t dimension = 0;  ///< 0: the largest index of the training file
  kexp::Task task = kexp::Task::Regression;
  NonFinitePolicy policy = NonFinitePolicy::Error;
  std::size_t max_features = 100000;
  std::uint64_t max_matrix_bytes = std::uint64_t{4} << 30;
  std::size_t stretch_bytes = kStretchBytes;  ///< of a stretch parsed on its own
  /// Parse into the matrix straight away where the first pass allows it (libsvm_data);
  /// false: always through the list of entries (the tests compare the two).
  bool direct = true;
};

/// One stored value: sample, feature index (from 0), value.
struct SparseEntry {
  std::uint32_t sample, feature;
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

/// Where the second pass writes a stretch's samples straight into the matrix: the r-th
/// line with data of the stretch (from 0, left out or not) into column first_row + r of X,
/// which is zero and has a column for every line with data of the file;
/// dropped[first_row + r] is set when the line is left out. An entry beyond X's rows is not
/// written (a test file's index beyond the training set's dimension, which libsvm_data
/// refuses afterwards).
struct DirectRows {
  arma::mat* X = nullptr;
  std::size_t first_row = 0;
  std::vector<char>* dropped = nullptr;
};

/// The lines of `file` from `start` to the byte `end` (a line's start or the end): their
/// entries into the list of `parts`, or into the matrix when `direct` is given.
inline SparseSamples libsvm_stretch(const TextFile& file, const LibsvmOptions& o,
                                    LineReader::Mark start, std::size_t end,
                                    const DirectRows* direct = nullptr) {
  SparseSamples s;
  s.file = file.name;
  const std::uint64_t limit = o.dimension > 0 ? o.dimension : o.max_features;
  std::vector<int>& dropped = s.dropped;
  std::size_t& rows = s.rows;
  std::vector<SparseEntry>& entries = s.parts.emplace_back().entries;
  if (direct == nullptr) {
    // Every entry has a colon and takes at least 4 bytes ("1:1 "), so both bound the
    // entries: one allocation, where a growing vector would copy them again at every
    // doubling, and no more than 4 × the text even when comments are full of colons.
    const std::string_view text = file.text.substr(start.position, end - start.position);
    entries.reserve(std::min(static_cast<std::size_t>(std::count(text.begin(), text.end(), ':')),
                             text.size() / 4 + 1));
  }
  LineReader lines(file, start, end);
  TextLine line;
  while (lines.next(line)) {
    const std::string_view content = line.text.substr(0, line.text.find('#'));
    Words tokens(content);
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
    const std::size_t column_index = direct != nullptr ? direct->first_row + rows - 1 : 0;
    if (direct != nullptr && column_index >= direct->X->n_cols) {
      throw std::logic_error("libsvm: the two passes over " + s.file +
                             " found different numbers of lines with data");
    }
    if (!keep) {
      entries.resize(row_start);
      dropped.push_back(line.number);
      if (direct != nullptr) (*direct->dropped)[column_index] = 1;
      continue;
    }
    if (direct != nullptr) {  // the line's entries into its column, and no further
      double* x = direct->X->colptr(column_index);
      for (const SparseEntry& e : entries) {
        if (e.feature < direct->X->n_rows) x[e.feature] = e.value;
      }
      entries.clear();
    }
    s.y.push_back(label);
    s.label_sources.push_back({line.number, label_column});
  }
  return s;
}

/// What the first pass finds in a file: its stretches, the lines with data in each and
/// the largest index, read from the last entry of every line with data. That is the
/// largest index of the line when its indices increase, which the second pass checks.
struct LibsvmShape {
  std::vector<Stretch> stretches;
  std::vector<std::size_t> first_row;  ///< of each stretch, among the lines with data
  std::size_t rows = 0;                ///< lines with data
  std::size_t max_index = 0;
  /// Whether the last entry of every line has an index from 1 to the limit; when one has
  /// not, the second pass refuses a line, and goes through the list of entries to do so.
  bool plain = true;
};

/// The first pass over `file`, its stretches in parallel.
inline LibsvmShape libsvm_shape(const TextFile& file, const LibsvmOptions& o) {
  LibsvmShape shape;
  shape.stretches = stretches(file, LineReader::Mark{}, o.stretch_bytes);
  const std::size_t count = shape.stretches.size();
  const std::uint64_t limit = o.dimension > 0 ? o.dimension : o.max_features;
  std::vector<std::size_t> rows(count, 0), max_index(count, 0);
  std::vector<char> plain(count, 1);
  read_in_parallel(count, [&](std::size_t k) {
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    LineReader lines(file, shape.stretches[k].start, shape.stretches[k].end);
    TextLine line;
    while (true) {
      try {
        if (!lines.next(line)) break;
      } catch (const kexp::DataError&) {
        // past INT_MAX lines: the second pass meets it, after any error before it
        plain[k] = 0;
        break;
      }
      std::string_view content = line.text.substr(0, line.text.find('#'));
      while (!content.empty() && blank(content.back())) content.remove_suffix(1);
      std::size_t first = 0;
      while (first < content.size() && blank(content[first])) ++first;
      if (first == content.size()) continue;  // a comment line
      ++rows[k];
      std::size_t last = content.size();
      while (last > first && !blank(content[last - 1])) --last;
      if (last == first) continue;  // the label alone
      const std::string_view token = content.substr(last);
      const std::size_t colon = token.find(':');
      std::uint64_t index = 0;
      if (colon == std::string_view::npos ||
          parse_index(token.substr(0, colon), limit, index) != IndexText::Index || index == 0) {
        plain[k] = 0;
        continue;
      }
      max_index[k] = std::max<std::size_t>(max_index[k], static_cast<std::size_t>(index));
    }
  });
  for (std::size_t k = 0; k < count; ++k) {
    shape.first_row.push_back(shape.rows);
    shape.rows += rows[k];
    shape.max_index = std::max(shape.max_index, max_index[k]);
    shape.plain = shape.plain && plain[k] != 0;
  }
  return shape;
}

/// Whether n samples of dimension d, stored dense, take at most `max_bytes`.
inline bool matrix_fits(std::size_t d, std::size_t n, std::uint64_t max_bytes) {
  return n == 0 || d <= max_bytes / 8 / n;  // d × n × 8 ≤ max_bytes, without overflow
}

/// A d × n matrix of zeros, backed by transparent huge pages where the machine has them.
inline arma::mat zero_matrix(std::size_t d, std::size_t n) {
  arma::mat X(d, n, arma::fill::none);
  kexp::advise_huge_pages(X);
  X.zeros();
  return X;
}

/// The second pass over `file`, whose first gave `shape`: the labels, and the entries into
/// `X` (zero, d × shape.rows; its columns of lines left out are then removed) when it is
/// given, else into the list of entries. Its stretches are read in parallel
/// (read_in_parallel).
inline SparseSamples libsvm_samples(const TextFile& file, const LibsvmOptions& o,
                                    const LibsvmShape& shape, arma::mat* X = nullptr) {
  const std::size_t count = shape.stretches.size();
  std::vector<char> dropped_rows;
  std::vector<DirectRows> direct;
  if (X != nullptr) {
    dropped_rows.assign(shape.rows, 0);
    for (std::size_t k = 0; k < count; ++k) {
      direct.push_back({X, shape.first_row[k], &dropped_rows});
    }
  }
  std::vector<SparseSamples> parts(count);
  read_in_parallel(count, [&](std::size_t k) {
    parts[k] = libsvm_stretch(file, o, shape.stretches[k].start, shape.stretches[k].end,
                              X != nullptr ? &direct[k] : nullptr);
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
  if (X != nullptr && !s.dropped.empty()) drop_columns(*X, dropped_rows);
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
  if (matrix_fits(d, n, max_bytes)) return;
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
  arma::mat X = zero_matrix(d, s.y.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(kexp::thread_count())
  for (std::size_t k = 0; k < s.parts.size(); ++k) {  // each part has its own columns
    const SparseEntries& part = s.parts[k];
    for (const SparseEntry& e : part.entries) X(e.feature, part.first_sample + e.sample) = e.value;
  }
  return X;
}

/// The data set of a training file and, if `read_test` gives one, a test file. Where the
/// first pass over a file shows that its matrix is within the limits and at most twice its
/// text, the second parses straight into it; otherwise through the list of entries, which
/// meets the errors in the same order.
inline kexp::Data libsvm_data(const TextFile& train_file, const ReadTestFile& read_test,
                              const LibsvmOptions& o) {
  const LibsvmShape train_shape = libsvm_shape(train_file, o);
  const std::size_t train_d = o.dimension > 0 ? o.dimension : train_shape.max_index;
  // Straight into the matrix when it is at most twice the text, about what the list of
  // entries would take: a file with an error is then refused before much more memory
  // than the list's has been taken for its matrix.
  const auto direct = [&](const TextFile& file, const LibsvmShape& shape, std::size_t d,
                          std::size_t n) {
    return o.direct && shape.plain && d > 0 &&
           matrix_fits(d, n, std::min<std::uint64_t>(o.max_matrix_bytes, 2 * file.text.size()));
  };
  std::optional<arma::mat> train_X;
  if (direct(train_file, train_shape, train_d, train_shape.rows)) {
    train_X = zero_matrix(train_d, train_shape.rows);
  }
  SparseSamples train = libsvm_samples(train_file, o, train_shape, train_X ? &*train_X : nullptr);
  const std::size_t d = o.dimension > 0 ? o.dimension : train.max_index;
  if (d == 0) {
    throw kexp::DataError(kexp::SourceLocation{train.file, 0, 0},
                          "no line has a feature (<index>:<value>), so the dimension is 0; set "
                          "dimension if every feature of the data is 0");
  }
  if (train_X && train_X->n_rows != d) {
    throw std::logic_error("libsvm: the two passes over " + train.file +
                           " found different dimensions");
  }
  std::optional<SparseSamples> test;
  std::optional<arma::mat> test_X;
  if (const std::optional<TextFile> test_file = read_test()) {
    const LibsvmShape test_shape = libsvm_shape(*test_file, o);
    if (direct(*test_file, test_shape, d, test_shape.rows) &&
        matrix_fits(d, train.y.size() + test_shape.rows, o.max_matrix_bytes)) {
      test_X = zero_matrix(d, test_shape.rows);
    }
    test = libsvm_samples(*test_file, o, test_shape, test_X ? &*test_X : nullptr);
    if (test->max_index > d) {
      throw kexp::DataError(
          kexp::SourceLocation{test->file, test->max_index_line, test->max_index_column},
          "index " + std::to_string(test->max_index) +
              " is beyond the dimension of the training set, " + std::to_string(d) +
              " (its largest index); set dimension: " + std::to_string(test->max_index) +
              " (or more) to give both files that dimension");
    }
  }
  kexp::Task task = o.task;
  if (o.task == kexp::Task::Classification) {
    const auto labels = class_labels(train.y, train.file);
    task = labels.task();
    map_labels(train.y, train.label_sources, train.file, labels, train.file);
    if (test) map_labels(test->y, test->label_sources, test->file, labels, train.file);
  }
  check_matrix_bytes(train.file, d, train.y.size() + (test ? test->y.size() : 0),
                     o.max_matrix_bytes);
  kexp::Data data;
  data.task = task;
  data.X = train_X ? std::move(*train_X) : libsvm_dense(train, d);
  data.y = arma::vec(train.y);
  if (test) {
    data.has_test = true;
    data.X_test = test_X ? std::move(*test_X) : libsvm_dense(*test, d);
    data.y_test = arma::vec(test->y);
  }
  return data;
}

}  // namespace kexp_datasets
