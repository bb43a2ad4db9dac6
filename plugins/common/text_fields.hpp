// The lines of a data file split into located fields or words, strict number parsing,
// and the policy for NaN, Inf and missing values: what the csv and libsvm readers share.
//
// Every problem is a kexp::DataError that names the file, the line and the column
// (1-based, in bytes), and says how to fix it. A line has at most `max_features` + 1
// fields.
#pragma once

#include <kexp/kexp.hpp>

#include <charconv>
#include <climits>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "common/text_file.hpp"

namespace kexp_datasets {

/// The bound on the fields of a line, declared alike by csv and libsvm.
constexpr kexp::ParamSpec kMaxFeaturesParam =
    kexp::param::integer("max_features", "100000",
                         "largest number of features a file may give the data; more is "
                         "refused before any memory is taken for them")
        .at_least(1)
        .at_most(INT_MAX - 1);

/// The shortest text that reads back to `v`.
std::string number_text(double v);

/// `text` in quotes for a message, cut after 40 bytes.
std::string in_quotes(std::string_view text);

/// The 1-based column of byte `i` of a line, saturated at INT_MAX.
inline int column_at(std::size_t i) {
  return i < static_cast<std::size_t>(INT_MAX) ? static_cast<int>(i) + 1 : INT_MAX;
}

/// The words of a line, separated by runs of spaces and tabs, one after the other.
class Words {
 public:
  explicit Words(std::string_view line) : line_(line) {}

  /// The next word and its 1-based column; false at the end of the line.
  bool next(std::string_view& word, int& column) {
    auto blank = [](char c) { return c == ' ' || c == '\t'; };
    while (pos_ < line_.size() && blank(line_[pos_])) ++pos_;
    if (pos_ == line_.size()) return false;
    const std::size_t start = pos_;
    while (pos_ < line_.size() && !blank(line_[pos_])) ++pos_;
    word = line_.substr(start, pos_ - start);
    column = column_at(start);
    return true;
  }

 private:
  std::string_view line_;
  std::size_t pos_ = 0;
};

/// One field of a line: its text (unquoted, spaces around it removed) and the column where
/// it starts. The text is a view into the line, or into the Fields that hold it for a quoted
/// field with a doubled quote, and lives as long as they do.
struct Field {
  std::string_view text;
  int column = 0;
};

/// The fields of one line, reused from line to line so that a million lines are split
/// without a string made per field.
class Fields {
 public:
  Fields() = default;
  // a copy's views would point into the original's storage
  Fields(const Fields&) = delete;
  Fields& operator=(const Fields&) = delete;
  Fields(Fields&&) = default;
  Fields& operator=(Fields&&) = default;
  ~Fields() = default;

  std::size_t size() const { return list_.size(); }
  bool empty() const { return list_.empty(); }
  const Field& operator[](std::size_t i) const { return list_[i]; }
  std::vector<Field>::const_iterator begin() const { return list_.begin(); }
  std::vector<Field>::const_iterator end() const { return list_.end(); }

  void clear() {
    list_.clear();
    unescaped_.clear();
  }
  void add(std::string_view text, int column) { list_.push_back({text, column}); }
  /// Storage for the text of a quoted field whose doubled quotes were made single; its
  /// address stays fixed until clear().
  std::string& unescaped() { return unescaped_.emplace_back(); }

 private:
  std::vector<Field> list_;
  std::deque<std::string> unescaped_;
};

/// What to do with a row that holds NaN, ±Inf or a missing value.
enum class NonFinitePolicy { Error, Drop };

/// The policy a dataset's `on_nonfinite` parameter names.
NonFinitePolicy nonfinite_policy(const kexp::Params& params);

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
/// twice), as in RFC 4180, but may not span lines. A line of more than `max_fields` fields
/// is an error: the limit max_features allows max_fields − 1 features. Into `fields`
/// (cleared first), so that a reader reuses them for every line.
void split_fields(const TextLine& line, char delimiter, const std::string& file,
                  std::size_t max_fields, Fields& fields);

/// The message for a row with a NaN, Inf or missing value under the policy `error`.
std::string nonfinite_message(const std::string& what);

/// Reports on stderr the rows left out under on_nonfinite: drop.
void report_dropped(const char* plugin, const std::string& file, const std::vector<int>& lines,
                    std::size_t total);

/// Removes the columns of `X` whose flag in `dropped` is set, the others kept in order: the
/// samples of rows left out under on_nonfinite: drop.
void drop_columns(arma::mat& X, const std::vector<char>& dropped);

/// Removes the elements of `v` whose flag in `dropped` is set, the others kept in order.
template <class T>
void drop_elements(std::vector<T>& v, const std::vector<char>& dropped) {
  std::size_t kept = 0;
  for (std::size_t r = 0; r < v.size(); ++r) {
    if (dropped[r] == 0) v[kept++] = v[r];
  }
  v.resize(kept);
}

}  // namespace kexp_datasets
