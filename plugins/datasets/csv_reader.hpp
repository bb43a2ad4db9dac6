// The reading of the csv dataset, from the text of its files to kexp::Data: csv.cpp
// gives it the files named in a config, tests/fuzz/csv_fuzz.cpp arbitrary bytes.
//
// A file is read in two passes over its text, each over stretches of its lines in
// parallel: the first reads the header and counts the rows of every stretch, which places
// each stretch's rows among the columns of the matrix; the second parses the stretches,
// each straight into its columns, and checks the number of fields of every row. No line
// is held split beyond its pass, so the memory taken is the text and the samples.
#pragma once

#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/labels.hpp"
#include "common/text_fields.hpp"
#include "common/text_file.hpp"

namespace kexp_datasets {

/// The parameters of the csv dataset that shape the reading.
struct CsvOptions {
  std::string target;  ///< column name or index; empty: the last column
  std::string header = "auto";
  char delimiter = ',';  ///< 0: runs of spaces and tabs
  kexp::Task task = kexp::Task::Regression;
  NonFinitePolicy policy = NonFinitePolicy::Error;
  std::size_t max_features = 100000;
  std::size_t stretch_bytes = kStretchBytes;  ///< of a stretch parsed on its own
};

inline char csv_delimiter(const std::string& name) {
  if (name == "tab") return '\t';
  if (name == "whitespace") return 0;
  return name.front();
}

inline std::string csv_delimiter_name(char c) {
  if (c == '\t') return "tab";
  if (c == 0) return "whitespace";
  return std::string("'") + c + "'";
}

/// A column name of the header and the column where it starts.
struct HeaderField {
  std::string text;
  int column = 0;
};

/// The shape of a delimited file, from the first pass: its header if it has one, the number
/// of fields of its first line (`width`, which every row must have) and the number of data
/// rows.
struct CsvTable {
  const TextFile* file = nullptr;
  std::vector<HeaderField> header;  ///< empty without a header
  int first_line = 0;               ///< number of the first non-blank line
  int header_line = 0;
  std::size_t width = 0;
  std::size_t rows = 0;  ///< data rows (the header left out)
  /// The stretches of the data rows, which the second pass parses in parallel.
  struct Chunk {
    Stretch lines;
    std::size_t row = 0;  ///< the index of its first row among the data rows
  };
  std::vector<Chunk> chunks;
};

inline bool csv_all_text(const Fields& fields) {
  bool any_text = false;
  for (const Field& f : fields) {
    double v = 0;
    if (parse_number(f.text, v)) return false;
    if (!is_missing(f.text)) any_text = true;
  }
  return any_text;
}

/// Throws if two columns of the header have the same name: a config that names one of
/// them would pick one silently.
inline void csv_check_unique_names(const CsvTable& t) {
  std::map<std::string_view, std::size_t> seen;
  for (std::size_t j = 0; j < t.header.size(); ++j) {
    const auto [it, added] = seen.emplace(t.header[j].text, j);
    if (added) continue;
    throw kexp::DataError(kexp::SourceLocation{t.file->name, t.header_line, t.header[j].column},
                          "column " + std::to_string(j + 1) + " is named " +
                              in_quotes(t.header[j].text) + " like column " +
                              std::to_string(it->second + 1) +
                              "; every column of the header needs its own name");
  }
}

/// The first pass over `file`.
inline CsvTable csv_table(const TextFile& file, const CsvOptions& o) {
  CsvTable t;
  t.file = &file;
  const std::string& name = file.name;
  const std::size_t max_fields = o.max_features + 1;
  LineReader lines(file);
  TextLine line;
  if (!lines.next(line)) {
    throw kexp::DataError(kexp::SourceLocation{name, 0, 0},
                          "the file is empty; it needs at least one row of data " + named_by(file));
  }
  Fields fields;
  split_fields(line, o.delimiter, name, max_fields, fields);
  t.first_line = line.number;
  t.width = fields.size();
  LineReader::Mark from;  // without a header, the first line is the first row
  if (o.header == "true" || (o.header == "auto" && csv_all_text(fields))) {
    for (const Field& f : fields) t.header.push_back({std::string(f.text), f.column});
    t.header_line = line.number;
    csv_check_unique_names(t);
    from = lines.mark();
  }
  const std::vector<Stretch> stretched = stretches(file, from, o.stretch_bytes);
  std::vector<std::size_t> rows(stretched.size(), 0);
  read_in_parallel(stretched.size(), [&](std::size_t k) {
    LineReader stretch(file, stretched[k].start, stretched[k].end);
    TextLine row;
    while (stretch.next(row)) ++rows[k];
  });
  for (std::size_t k = 0; k < stretched.size(); ++k) {
    t.chunks.push_back({stretched[k], t.rows});
    t.rows += rows[k];
  }
  if (t.rows == 0) {
    throw kexp::DataError(kexp::SourceLocation{name, t.header_line, 0},
                          "the file has a header but no rows of data " + named_by(file));
  }
  if (t.width < 2) {
    throw kexp::DataError(kexp::SourceLocation{name, t.first_line, 0},
                          "a row has one field, but a data set needs at least two columns "
                          "(features and the target); is the delimiter right? It is " +
                              csv_delimiter_name(o.delimiter));
  }
  return t;
}

/// The error for a row of `width` fields in the table `t`.
inline kexp::DataError csv_width_error(const CsvTable& t, const TextLine& row, std::size_t width,
                                       char delimiter) {
  return kexp::DataError(kexp::SourceLocation{t.file->name, row.number, 0},
                         "this row has " + std::to_string(width) + " fields, line " +
                             std::to_string(t.first_line) + " has " + std::to_string(t.width) +
                             "; every row needs the same number (the delimiter is " +
                             csv_delimiter_name(delimiter) + ")");
}

inline std::string csv_column_list(const CsvTable& t) {
  std::string list;
  for (std::size_t j = 0; j < t.header.size(); ++j)
    list += (j ? ", " : "") + in_quotes(t.header[j].text);
  return list;
}

/// The index of the target column in `t`.
inline std::size_t csv_target_column(const CsvTable& t, const std::string& target) {
  if (target.empty()) return t.width - 1;
  for (std::size_t j = 0; j < t.header.size(); ++j) {
    if (t.header[j].text == target) return j;
  }
  double v = 0;
  const auto w = static_cast<std::int64_t>(t.width);
  const kexp::SourceLocation at{t.file->name, t.first_line, 0};
  if (parse_number(target, v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    const auto index = static_cast<std::int64_t>(v);
    if (index >= -w && index < w) return static_cast<std::size_t>(index < 0 ? index + w : index);
    throw kexp::DataError(at, "target column " + target + " does not exist: the file has " +
                                  std::to_string(t.width) + " columns, indexed 0 to " +
                                  std::to_string(t.width - 1) + " (or -1 for the last)");
  }
  std::string message = "target column '" + target + "' does not exist; ";
  message += t.header.empty() ? "the file has no header, so name the column by its index (0 to " +
                                    std::to_string(t.width - 1) + ", or -1 for the last)"
                              : "the columns are " + csv_column_list(t);
  throw kexp::DataError(at, message);
}

/// The samples of a table (features d × n, targets), the rows with a missing or
/// non-finite value left out under on_nonfinite: drop.
struct CsvSamples {
  arma::mat X;
  std::vector<double> y;
  std::vector<LabelSource> label_sources;
};

/// Reads a row of plain numbers straight from the text of its line, without splitting it:
/// `width` fields separated by `delimiter` (not a space or a tab), each a finite number
/// with spaces and tabs around it, into `row`, and the column where field `target` starts.
/// False for anything else (a quote, a missing value, text, NaN or Inf), which the caller
/// then reads field by field, for its message or its policy: the two readings accept the
/// same rows with the same values.
inline bool csv_plain_row(std::string_view s, char delimiter, std::size_t width, std::size_t target,
                          double* row, int& target_column) {
  const char* const begin = s.data();
  const char* const end = begin + s.size();
  const char* at = begin;
  auto skip_blanks = [&] {
    while (at < end && (*at == ' ' || *at == '\t')) ++at;
  };
  for (std::size_t j = 0; j < width; ++j) {
    skip_blanks();
    if (j == target) target_column = column_at(static_cast<std::size_t>(at - begin));
    // parse_number's rule: a '+' is read, but not before a '-'
    if (at + 1 < end && at[0] == '+' && at[1] != '-') ++at;
    const auto r = std::from_chars(at, end, row[j]);
    if (r.ec != std::errc() || !std::isfinite(row[j])) return false;
    at = r.ptr;
    skip_blanks();
    if (j + 1 == width) return at == end;
    if (at == end || *at != delimiter) return false;
    ++at;
  }
  return false;
}

/// The rows of chunk `c` of `t` into `p`, whose X, y and label_sources have a place for
/// every row; a row left out under on_nonfinite: drop is marked in `dropped_rows` and its
/// line added to `dropped_lines`.
inline void csv_chunk(const CsvTable& t, std::size_t c, std::size_t target, const CsvOptions& o,
                      CsvSamples& p, std::vector<char>& dropped_rows,
                      std::vector<int>& dropped_lines) {
  const std::string& name = t.file->name;
  const std::size_t first = t.chunks[c].row;
  const std::size_t last = c + 1 < t.chunks.size() ? t.chunks[c + 1].row : t.rows;
  LineReader lines(*t.file, t.chunks[c].lines.start, t.chunks[c].lines.end);
  TextLine line;
  Fields fields;
  std::vector<double> row(t.width);
  const bool plain = o.delimiter != 0 && o.delimiter != ' ' && o.delimiter != '\t';
  // row r, read into `row`, into its column of X, its target and the target's place
  const auto store = [&](std::size_t r, int target_column) {
    double* x = p.X.colptr(r);
    for (std::size_t j = 0; j < t.width; ++j) {
      if (j != target) *x++ = row[j];
    }
    p.y[r] = row[target];
    p.label_sources[r] = {line.number, target_column};
  };
  for (std::size_t r = first; r < last && lines.next(line); ++r) {
    int target_column = 0;
    if (plain &&
        csv_plain_row(line.text, o.delimiter, t.width, target, row.data(), target_column)) {
      store(r, target_column);
      continue;
    }
    split_fields(line, o.delimiter, name, o.max_features + 1, fields);
    if (fields.size() != t.width) throw csv_width_error(t, line, fields.size(), o.delimiter);
    bool keep = true;
    for (std::size_t j = 0; j < t.width; ++j) {
      const Field& f = fields[j];
      // Made only for a message: a million rows are read without a string built per value.
      const auto at = [&] { return kexp::SourceLocation{name, line.number, f.column}; };
      const auto field = [&] { return "field " + std::to_string(j + 1); };
      if (is_missing(f.text)) {
        if (o.policy == NonFinitePolicy::Error) {
          throw kexp::DataError(
              at(), nonfinite_message(field() + (f.text.empty() ? " is empty" : " is NA") +
                                      " (a missing value)"));
        }
        keep = false;
        continue;
      }
      if (!parse_number(f.text, row[j])) {
        std::string message = field() + " " + in_quotes(f.text) + " is not a number";
        if (t.header.empty() && line.number == t.first_line) {
          message += " (if line " + std::to_string(line.number) + " is a header, set header: true)";
        } else {
          message += "; every field must be a number in the C locale (a point for decimals)";
        }
        throw kexp::DataError(at(), message);
      }
      if (!std::isfinite(row[j])) {
        if (o.policy == NonFinitePolicy::Error) {
          throw kexp::DataError(
              at(), nonfinite_message(field() + " is " + std::string(f.text) + " (not finite)"));
        }
        keep = false;
      }
    }
    if (!keep) {
      dropped_rows[r] = 1;
      dropped_lines.push_back(line.number);
      continue;
    }
    store(r, fields[target].column);
  }
}

/// The second pass over the file of `t`: its stretches in parallel (read_in_parallel), each
/// into its own columns.
inline CsvSamples csv_samples(const CsvTable& t, std::size_t target, const CsvOptions& o) {
  const std::string& name = t.file->name;
  CsvSamples p;
  p.X.set_size(t.width - 1, t.rows);
  kexp::advise_huge_pages(p.X);
  p.y.resize(t.rows);
  p.label_sources.resize(t.rows);
  std::vector<char> dropped_rows(t.rows, 0);
  const std::size_t chunks = t.chunks.size();
  std::vector<std::vector<int>> dropped_lines(chunks);
  read_in_parallel(chunks, [&](std::size_t c) {
    csv_chunk(t, c, target, o, p, dropped_rows, dropped_lines[c]);
  });
  std::vector<int> dropped;
  for (const std::vector<int>& lines : dropped_lines) {
    dropped.insert(dropped.end(), lines.begin(), lines.end());
  }
  report_dropped("csv", name, dropped, t.rows);
  if (dropped.size() == t.rows) {
    throw kexp::DataError(kexp::SourceLocation{name, 0, 0},
                          "every row has a NaN, Inf or missing value, so none is left");
  }
  if (!dropped.empty()) {
    drop_columns(p.X, dropped_rows);
    drop_elements(p.y, dropped_rows);
    drop_elements(p.label_sources, dropped_rows);
  }
  return p;
}

/// Throws unless the test file has the columns of the training file.
inline void csv_check_same_columns(const CsvTable& train, const CsvTable& test) {
  if (test.width != train.width) {
    throw kexp::DataError(kexp::SourceLocation{test.file->name, test.first_line, 0},
                          "the test file has " + std::to_string(test.width) +
                              " columns, the training file " + train.file->name + " has " +
                              std::to_string(train.width) + "; both need the same columns");
  }
  if (train.header.empty() || test.header.empty()) return;
  for (std::size_t j = 0; j < train.width; ++j) {
    if (train.header[j].text != test.header[j].text) {
      throw kexp::DataError(
          kexp::SourceLocation{test.file->name, test.header_line, test.header[j].column},
          "column " + std::to_string(j + 1) + " is named " + in_quotes(test.header[j].text) +
              ", in the training file " + train.file->name + " " + in_quotes(train.header[j].text) +
              "; both files need the same columns in the same order");
    }
  }
}

/// The data set of a training file and, if `read_test` gives one, a test file.
inline kexp::Data csv_data(const TextFile& train, const ReadTestFile& read_test,
                           const CsvOptions& o) {
  const CsvTable tr = csv_table(train, o);
  const std::size_t target = csv_target_column(tr, o.target);
  CsvSamples a = csv_samples(tr, target, o);

  kexp::Data data;
  data.task = o.task;
  for (std::size_t j = 0; j < tr.header.size(); ++j) {
    if (j != target) data.feature_names.push_back(tr.header[j].text);
  }
  std::optional<CsvSamples> b;
  const std::optional<TextFile> test = read_test();
  if (test) {
    const CsvTable te = csv_table(*test, o);
    csv_check_same_columns(tr, te);
    b = csv_samples(te, target, o);
  }
  if (o.task == kexp::Task::Classification) {
    const auto labels = class_labels(a.y, train.name);
    data.task = labels.task();
    map_labels(a.y, a.label_sources, train.name, labels, train.name);
    if (b) map_labels(b->y, b->label_sources, test->name, labels, train.name);
  }
  data.X = std::move(a.X);
  data.y = arma::vec(a.y);
  if (b) {
    data.has_test = true;
    data.X_test = std::move(b->X);
    data.y_test = arma::vec(b->y);
  }
  return data;
}

}  // namespace kexp_datasets
