// Splitting lines into fields, and the NaN/Inf policy (common/text_fields.hpp).
#include "common/text_fields.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace kexp_datasets {

std::string number_text(double v) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, r.ptr);
}

std::string in_quotes(std::string_view text) {
  constexpr std::size_t kShown = 40;
  if (text.size() <= kShown) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kShown)) + "…' (" + std::to_string(text.size()) +
         " bytes)";
}

NonFinitePolicy nonfinite_policy(const kexp::Params& params) {
  return params.string("on_nonfinite") == "drop" ? NonFinitePolicy::Drop : NonFinitePolicy::Error;
}

void split_fields(const TextLine& line, char delimiter, const std::string& file,
                  std::size_t max_fields, Fields& fields) {
  fields.clear();
  const std::string_view s = line.text;
  const std::size_t n = s.size();
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  auto add = [&](std::string_view text, int column) {
    if (fields.size() == max_fields) {
      throw kexp::DataError(
          kexp::SourceLocation{file, line.number, column},
          "this line has more than " + std::to_string(max_fields) +
              " fields, more than max_features, " + std::to_string(max_fields - 1) +
              ", allows (features and a target or label); set max_features in the dataset "
              "block if the data has more features");
    }
    fields.add(text, column);
  };
  if (delimiter == 0) {
    std::size_t i = 0;
    while (i < n) {
      while (i < n && blank(s[i])) ++i;
      if (i == n) break;
      const std::size_t start = i;
      while (i < n && !blank(s[i])) ++i;
      add(s.substr(start, i - start), column_at(start));
    }
    return;
  }
  std::size_t i = 0;
  while (true) {
    while (i < n && s[i] != delimiter && blank(s[i])) ++i;
    const int column = column_at(i);
    std::string_view text;
    if (i < n && s[i] == '"') {
      const std::size_t start = ++i;
      std::string* unescaped = nullptr;  // made at the first doubled quote
      bool closed = false;
      while (i < n) {
        if (s[i] != '"') {
          if (unescaped != nullptr) *unescaped += s[i];
          ++i;
          continue;
        }
        if (i + 1 < n && s[i + 1] == '"') {
          if (unescaped == nullptr) unescaped = &(fields.unescaped() = s.substr(start, i - start));
          *unescaped += '"';
          i += 2;
          continue;
        }
        text = unescaped != nullptr ? std::string_view(*unescaped) : s.substr(start, i - start);
        closed = true;
        ++i;
        break;
      }
      if (!closed) {
        throw kexp::DataError(kexp::SourceLocation{file, line.number, column},
                              "a quoted field is not closed on this line (a field may not span "
                              "lines); close the quote");
      }
      while (i < n && s[i] != delimiter && blank(s[i])) ++i;
      if (i < n && s[i] != delimiter) {
        throw kexp::DataError(
            kexp::SourceLocation{file, line.number, column_at(i)},
            std::string("unexpected text after a closing quote; a field ends with the quote "
                        "and then the delimiter '") +
                delimiter + "'");
      }
    } else {
      const std::size_t start = i;
      while (i < n && s[i] != delimiter) ++i;
      std::size_t end = i;
      while (end > start && blank(s[end - 1])) --end;
      text = s.substr(start, end - start);
    }
    add(text, column);
    if (i >= n) break;
    ++i;  // the delimiter
  }
}

std::string nonfinite_message(const std::string& what) {
  return what +
         "; fix or remove the row, or set on_nonfinite: drop to leave out the rows that have "
         "one";
}

void report_dropped(const char* plugin, const std::string& file, const std::vector<int>& lines,
                    std::size_t total) {
  if (lines.empty()) return;
  std::ostringstream list;
  const std::size_t shown = std::min<std::size_t>(lines.size(), 5);
  for (std::size_t i = 0; i < shown; ++i) list << (i ? ", " : "") << lines[i];
  if (lines.size() > shown) list << ", …";
  std::cerr << "kexp: dataset " << plugin << ": dropped " << lines.size() << " of " << total
            << " rows of " << file << " with a NaN, Inf or missing value (lines " << list.str()
            << "; on_nonfinite: drop)\n";
}

void drop_columns(arma::mat& X, const std::vector<char>& dropped) {
  arma::uword kept = 0;
  for (arma::uword r = 0; r < X.n_cols; ++r) {
    if (dropped[r] != 0) continue;
    if (kept != r) X.col(kept) = X.col(r);
    ++kept;
  }
  X.resize(X.n_rows, kept);
}

}  // namespace kexp_datasets
