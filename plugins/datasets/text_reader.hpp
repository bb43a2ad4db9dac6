// What the file datasets (csv, libsvm) share: reading a file named in a config, splitting
// lines into located fields, strict number parsing, the NaN/Inf policy and the mapping of
// binary labels to ±1.
//
// Every problem is a kexp::DataError that names the file, the line and, where it applies,
// the column (1-based, in bytes), and says how to fix it.
#pragma once

#include <kexp/kexp.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace kexp_datasets {

namespace fs = std::filesystem;

/// One non-blank line of a text file: its 1-based number and its text without the line end.
struct TextLine {
  int number = 0;
  std::string text;
};

/// A text file as read: the name used in messages and its non-blank lines.
struct TextFile {
  std::string name;
  std::vector<TextLine> lines;
};

/// One field of a line: its text (unquoted, spaces around it removed) and the column where
/// it starts.
struct Field {
  std::string text;
  int column = 0;
};

/// What to do with a row that holds NaN, ±Inf or a missing value.
enum class NonFinitePolicy { Error, Drop };

inline NonFinitePolicy nonfinite_policy(const kexp::Params& params) {
  return params.string("on_nonfinite") == "drop" ? NonFinitePolicy::Drop : NonFinitePolicy::Error;
}

inline kexp::Task task_of(const kexp::Params& params) {
  return params.string("task") == "classification" ? kexp::Task::Classification
                                                   : kexp::Task::Regression;
}

/// The shortest text that reads back to `v`.
inline std::string number_text(double v) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, r.ptr);
}

/// `path` resolved against the config's folder, as DESIGN.md asks of every file a config
/// names.
inline fs::path resolve(const kexp::DatasetContext& context, const std::string& path) {
  fs::path p(path);
  if (p.is_relative() && !context.base_dir.empty()) p = context.base_dir / p;
  return p.lexically_normal();
}

/// Reads the file given by parameter `key` (the text `given`, resolved to `path`). Blank
/// lines are skipped; a UTF-8 byte-order mark and carriage returns are removed. Throws
/// DataError if the file is missing, unreadable or has no non-blank line.
inline TextFile read_text_file(const fs::path& path, const std::string& key,
                               const std::string& given) {
  TextFile file;
  file.name = path.string();
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    throw kexp::DataError(kexp::SourceLocation{file.name, 0, 0},
                          "the file does not exist (" + key + ": " + given +
                              "; a relative path is taken from the config file's folder)");
  }
  if (fs::is_directory(path, ec)) {
    throw kexp::DataError(kexp::SourceLocation{file.name, 0, 0},
                          "is a folder, not a file (" + key + ": " + given + ")");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw kexp::DataError(kexp::SourceLocation{file.name, 0, 0},
                          std::string("cannot be read: ") + std::strerror(errno));
  }
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (number == 1 && text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    file.lines.push_back({number, text});
  }
  if (in.bad()) {
    throw kexp::DataError(kexp::SourceLocation{file.name, number, 0},
                          "reading the file failed after this line");
  }
  if (file.lines.empty()) {
    throw kexp::DataError(
        kexp::SourceLocation{file.name, 0, 0},
        "the file is empty; it needs at least one row of data (" + key + ": " + given + ")");
  }
  return file;
}

/// Whether `text` is the mark of a missing value: empty or NA.
inline bool is_missing(std::string_view text) { return text.empty() || text == "NA"; }

/// Parses the whole of `text` as a decimal number (an optional sign, digits, a point, an
/// exponent; also nan and inf, which the caller treats by the NaN/Inf policy). False when
/// `text` is not a number. Independent of the locale.
inline bool parse_number(std::string_view text, double& out) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, out);
  return r.ec == std::errc() && r.ptr == end;
}

/// Splits `line` at `delimiter`, or at runs of spaces and tabs when `delimiter` is 0.
/// With a delimiter, a field may be enclosed in double quotes (a quote inside written
/// twice), as in RFC 4180, but may not span lines.
inline std::vector<Field> split_fields(const TextLine& line, char delimiter,
                                       const std::string& file) {
  std::vector<Field> fields;
  const std::string& s = line.text;
  const std::size_t n = s.size();
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  if (delimiter == 0) {
    std::size_t i = 0;
    while (i < n) {
      while (i < n && blank(s[i])) ++i;
      if (i == n) break;
      const std::size_t start = i;
      while (i < n && !blank(s[i])) ++i;
      fields.push_back({s.substr(start, i - start), static_cast<int>(start) + 1});
    }
    return fields;
  }
  std::size_t i = 0;
  while (true) {
    while (i < n && s[i] != delimiter && blank(s[i])) ++i;
    Field f;
    f.column = static_cast<int>(i) + 1;
    if (i < n && s[i] == '"') {
      ++i;
      bool closed = false;
      while (i < n) {
        if (s[i] == '"') {
          if (i + 1 < n && s[i + 1] == '"') {
            f.text += '"';
            i += 2;
            continue;
          }
          closed = true;
          ++i;
          break;
        }
        f.text += s[i++];
      }
      if (!closed) {
        throw kexp::DataError(kexp::SourceLocation{file, line.number, f.column},
                              "a quoted field is not closed on this line (a field may not span "
                              "lines); close the quote");
      }
      while (i < n && s[i] != delimiter && blank(s[i])) ++i;
      if (i < n && s[i] != delimiter) {
        throw kexp::DataError(
            kexp::SourceLocation{file, line.number, static_cast<int>(i) + 1},
            std::string("unexpected text after a closing quote; a field ends with the quote "
                        "and then the delimiter '") +
                delimiter + "'");
      }
    } else {
      const std::size_t start = i;
      while (i < n && s[i] != delimiter) ++i;
      std::size_t end = i;
      while (end > start && blank(s[end - 1])) --end;
      f.text = s.substr(start, end - start);
    }
    fields.push_back(std::move(f));
    if (i >= n) break;
    ++i;  // the delimiter
  }
  return fields;
}

/// The message for a row with a NaN, Inf or missing value under the policy `error`.
inline std::string nonfinite_message(const std::string& what) {
  return what +
         "; fix or remove the row, or set on_nonfinite: drop to leave out the rows that have "
         "one";
}

/// Reports on stderr the rows left out under on_nonfinite: drop.
inline void report_dropped(const char* plugin, const std::string& file,
                           const std::vector<int>& lines, std::size_t total) {
  if (lines.empty()) return;
  std::ostringstream list;
  const std::size_t shown = std::min<std::size_t>(lines.size(), 5);
  for (std::size_t i = 0; i < shown; ++i) list << (i ? ", " : "") << lines[i];
  if (lines.size() > shown) list << ", …";
  std::cerr << "kexp: dataset " << plugin << ": dropped " << lines.size() << " of " << total
            << " rows of " << file << " with a NaN, Inf or missing value (lines " << list.str()
            << "; on_nonfinite: drop)\n";
}

/// Where a label came from, for messages.
struct LabelSource {
  std::string file;
  int line = 0;
  int column = 0;
};

/// The two label values of a binary classification set: the smaller becomes −1, the
/// larger +1 (so 0/1, 1/2 and −1/+1 all map to −1/+1).
struct BinaryLabels {
  double negative = -1, positive = 1;
};

/// Finds the two labels of the training set; throws unless there are exactly two.
inline BinaryLabels binary_labels(const std::vector<double>& y, const std::string& file) {
  std::vector<double> values = y;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() != 2) {
    std::ostringstream list;
    const std::size_t shown = std::min<std::size_t>(values.size(), 6);
    for (std::size_t i = 0; i < shown; ++i) list << (i ? ", " : "") << number_text(values[i]);
    if (values.size() > shown) list << ", …";
    throw kexp::DataError(kexp::SourceLocation{file, 0, 0},
                          "task classification needs exactly two distinct labels, found " +
                              std::to_string(values.size()) + " (" + list.str() +
                              "); kexp's classifiers are binary: relabel the data, or use task: "
                              "regression");
  }
  return {values[0], values[1]};
}

/// Maps y to ±1 in place; a value that is neither label is an error at its source.
inline void map_labels(std::vector<double>& y, const std::vector<LabelSource>& sources,
                       const BinaryLabels& labels, const std::string& train_file) {
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] == labels.negative) {
      y[i] = -1.0;
    } else if (y[i] == labels.positive) {
      y[i] = 1.0;
    } else {
      const LabelSource& s = sources[i];
      throw kexp::DataError(kexp::SourceLocation{s.file, s.line, s.column},
                            "label " + number_text(y[i]) + " is not one of the two labels of " +
                                train_file + " (" + number_text(labels.negative) + ", " +
                                number_text(labels.positive) + ")");
    }
  }
}

}  // namespace kexp_datasets
