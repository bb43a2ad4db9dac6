// Reading the `sequences` dataset's files: one sequence of symbols per line, after its
// target.
//
//   # a comment
//   +1  ACGTTGCA
//   -1  GGCAT
//
// The target comes first, then spaces or tabs, then the sequence. With `tokens:
// characters` the sequence is one word and each of its bytes is a symbol; with `tokens:
// words` it is the rest of the line, and each word (a run of other bytes than spaces and
// tabs) is a symbol. Lines starting with `#` and blank lines are skipped.
//
// The alphabet is declared (`alphabet: ACGT`, or for words the symbols separated by
// spaces) or read from the training file: its distinct symbols in byte order. A symbol of
// either file that is not in it is an error at its line and column.
//
// Storage: each file is split into line records once (the target and where the symbols
// are), which are walked to find the longest sequence and then to fill one L × n matrix,
// filled with −1 beforehand (the SDK's encoding, kexp/dataset.hpp). No allocation is made
// per sequence. The matrix takes 8·n·L bytes, padding included: `max_length` bounds L,
// `max_matrix_bytes` the whole, checked before it is made.
#pragma once

#include <kexp/kexp.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/labels.hpp"
#include "common/text_fields.hpp"
#include "common/text_file.hpp"

namespace kexp_datasets {

/// How a line's sequence is cut into symbols.
enum class Tokens : std::uint8_t { Characters, Words };

struct SequenceOptions {
  Tokens tokens = Tokens::Characters;
  std::string alphabet;  ///< declared symbols; empty: read from the training file
  kexp::Task task = kexp::Task::Classification;
  std::size_t max_length = 100000;
  std::uint64_t max_matrix_bytes = 4294967296;
};

/// visit(symbol, offset) for each symbol of `text`, cut as `tokens` says (spaces and tabs
/// separate words, and are skipped between characters), with the byte where it starts.
template <class Visit>
void for_each_token(std::string_view text, Tokens tokens, const Visit& visit) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    if (tokens == Tokens::Characters) {
      i += i < text.size() ? 1 : 0;
    } else {
      while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    }
    if (i > start) visit(text.substr(start, i - start), start);
  }
}

/// The symbols and their indices.
class Alphabet {
 public:
  explicit Alphabet(Tokens tokens = Tokens::Characters) : tokens_(tokens) {}

  /// The declared alphabet: each byte a symbol for characters, each word for words.
  /// Throws DataError (at the dataset entry, line 0) for an empty alphabet or a symbol
  /// given twice.
  static Alphabet declared(std::string_view text, Tokens tokens) {
    Alphabet a(tokens);
    for_each_token(text, tokens, [&](std::string_view s, std::size_t) {
      if (!a.add(s)) {
        throw kexp::DataError("alphabet: the symbol " + in_quotes(s) +
                              " is given twice; give each symbol once");
      }
    });
    if (a.symbols_.empty()) {
      throw kexp::DataError(
          "alphabet: no symbol is given; give the symbols, or leave "
          "alphabet empty to read them from the training file");
    }
    return a;
  }

  /// Adds `symbol` if it is new; false when it was there.
  bool add(std::string_view symbol) {
    if (tokens_ == Tokens::Characters) {
      const auto byte = static_cast<unsigned char>(symbol.front());
      if (byte_index_[byte] >= 0) return false;
      byte_index_[byte] = static_cast<int>(symbols_.size());
    } else {
      if (!word_index_.emplace(std::string(symbol), static_cast<int>(symbols_.size())).second)
        return false;
    }
    symbols_.emplace_back(symbol);
    return true;
  }

  /// The index of `symbol`, or −1.
  [[nodiscard]] int index(std::string_view symbol) const {
    if (tokens_ == Tokens::Characters) return byte_index_[static_cast<unsigned char>(symbol[0])];
    const auto it = word_index_.find(symbol);
    return it == word_index_.end() ? -1 : it->second;
  }

  /// The symbols in byte order, indices renumbered: an alphabet read from a file does not
  /// depend on the order the symbols first appear in.
  void sort() {
    std::vector<std::string> sorted = symbols_;
    std::sort(sorted.begin(), sorted.end());
    Alphabet a(tokens_);
    for (const std::string& s : sorted) a.add(s);
    *this = std::move(a);
  }

  [[nodiscard]] const std::vector<std::string>& symbols() const { return symbols_; }

 private:
  Tokens tokens_ = Tokens::Characters;
  std::vector<std::string> symbols_;
  std::array<int, 256> byte_index_ = filled();
  std::map<std::string, int, std::less<>> word_index_;

  static std::array<int, 256> filled() {
    std::array<int, 256> a{};
    a.fill(-1);
    return a;
  }
};

/// One line of a sequences file: its target and where its symbols are.
struct SequenceLine {
  int number = 0;
  double target = 0;
  int target_column = 0;
  std::string_view symbols;    ///< the text after the target
  std::size_t symbols_at = 0;  ///< the byte of the line where it starts
};

/// Every sequence line of `file`, checked: a target that is a finite number, then at least
/// one symbol; with characters, one word. Throws DataError at file:line:column.
inline std::vector<SequenceLine> sequence_lines(const TextFile& file, Tokens tokens) {
  std::vector<SequenceLine> out;
  LineReader reader(file);
  TextLine line;
  while (reader.next(line)) {
    const std::string_view s = line.text;
    const std::size_t begin = s.find_first_not_of(" \t");
    if (s[begin] == '#') continue;
    const auto at = [&](std::size_t i) {
      return kexp::SourceLocation{file.name, line.number, column_at(i)};
    };
    std::size_t end = s.find_first_of(" \t", begin);
    if (end == std::string_view::npos) end = s.size();
    SequenceLine l;
    l.number = line.number;
    l.target_column = column_at(begin);
    const std::string_view target = s.substr(begin, end - begin);
    if (!parse_number(target, l.target) || !std::isfinite(l.target)) {
      throw kexp::DataError(at(begin), "the target " + in_quotes(target) +
                                           " is not a finite number; a line is the target, "
                                           "then the sequence");
    }
    const std::size_t first = s.find_first_not_of(" \t", end);
    if (first == std::string_view::npos) {
      throw kexp::DataError(at(end), "the line has a target and no sequence after it");
    }
    std::size_t last = s.find_last_not_of(" \t");
    l.symbols = s.substr(first, last + 1 - first);
    l.symbols_at = first;
    if (tokens == Tokens::Characters) {
      const std::size_t space = l.symbols.find_first_of(" \t");
      if (space != std::string_view::npos) {
        throw kexp::DataError(at(first + space),
                              "the sequence has a space in it; with tokens: characters a "
                              "sequence is one word (use tokens: words for symbols separated "
                              "by spaces)");
      }
    }
    out.push_back(l);
  }
  if (out.empty()) {
    throw kexp::DataError(kexp::SourceLocation{file.name, 0, 0},
                          "the file has no sequence, only comments " + named_by(file));
  }
  return out;
}

/// The symbols of a line, with the byte of the line where each starts.
template <class Visit>
void for_each_symbol(const SequenceLine& l, Tokens tokens, const Visit& visit) {
  for_each_token(l.symbols, tokens, [&](std::string_view symbol, std::size_t at) {
    visit(symbol, l.symbols_at + at);
  });
}

/// The longest sequence of `lines`; throws past `max_length`.
inline std::size_t longest(const std::vector<SequenceLine>& lines, const TextFile& file,
                           const SequenceOptions& o) {
  std::size_t L = 0;
  for (const SequenceLine& l : lines) {
    std::size_t length = 0;
    for_each_symbol(l, o.tokens, [&](std::string_view, std::size_t) { ++length; });
    if (length > o.max_length) {
      throw kexp::DataError(
          kexp::SourceLocation{file.name, l.number, column_at(l.symbols_at)},
          "the sequence has " + std::to_string(length) + " symbols, more than max_length " +
              std::to_string(o.max_length) +
              " (every sequence is stored padded to the longest: raise max_length if the "
              "memory allows)");
    }
    L = std::max(L, length);
  }
  return L;
}

/// Fills X (L × n, −1 beforehand) and y from `lines`; a symbol not in `alphabet` is an
/// error at its place.
inline void fill_sequences(const std::vector<SequenceLine>& lines, const TextFile& file,
                           const Alphabet& alphabet, const SequenceOptions& o, arma::mat& X,
                           std::vector<double>& y, std::vector<LabelSource>& sources) {
  y.resize(lines.size());
  sources.resize(lines.size());
  for (std::size_t j = 0; j < lines.size(); ++j) {
    const SequenceLine& l = lines[j];
    y[j] = l.target;
    sources[j] = {l.number, l.target_column};
    double* column = X.colptr(j);
    std::size_t t = 0;
    for_each_symbol(l, o.tokens, [&](std::string_view symbol, std::size_t at) {
      const int index = alphabet.index(symbol);
      if (index < 0) {
        throw kexp::DataError(
            kexp::SourceLocation{file.name, l.number, column_at(at)},
            "the symbol " + in_quotes(symbol) + " is not in the alphabet" +
                (o.alphabet.empty() ? " read from the training file" : " declared by alphabet") +
                "; add it to alphabet:");
      }
      column[t++] = index;
    });
  }
}

/// The data set of a training file and, if `read_test` gives one, a test file.
inline kexp::Data sequence_data(const TextFile& train, const ReadTestFile& read_test,
                                const SequenceOptions& o) {
  const std::vector<SequenceLine> a = sequence_lines(train, o.tokens);
  Alphabet alphabet(o.tokens);
  if (!o.alphabet.empty()) {
    alphabet = Alphabet::declared(o.alphabet, o.tokens);
  } else {
    for (const SequenceLine& l : a) {
      for_each_symbol(l, o.tokens,
                      [&](std::string_view symbol, std::size_t) { (void)alphabet.add(symbol); });
    }
    alphabet.sort();
  }
  std::size_t L = longest(a, train, o);
  std::optional<std::vector<SequenceLine>> b;
  const std::optional<TextFile> test = read_test();
  if (test) {
    b = sequence_lines(*test, o.tokens);
    L = std::max(L, longest(*b, *test, o));
  }
  const double bytes =
      8.0 * static_cast<double>(L) * static_cast<double>(a.size() + (b ? b->size() : 0));
  if (bytes > static_cast<double>(o.max_matrix_bytes)) {
    throw kexp::DataError(
        kexp::SourceLocation{train.name, 0, 0},
        "the " + std::to_string(a.size() + (b ? b->size() : 0)) +
            " sequences, each stored padded to the longest (" + std::to_string(L) +
            " symbols), would take " + byte_count(static_cast<std::uint64_t>(bytes)) +
            ", more than max_matrix_bytes " + byte_count(o.max_matrix_bytes) +
            "; raise max_matrix_bytes if the memory allows, or leave out the longest sequences");
  }
  kexp::Data data;
  data.task = o.task;
  data.X.set_size(L, a.size());
  data.X.fill(-1.0);
  std::vector<double> ya, yb;
  std::vector<LabelSource> sa, sb;
  fill_sequences(a, train, alphabet, o, data.X, ya, sa);
  if (b) {
    data.has_test = true;
    data.X_test.set_size(L, b->size());
    data.X_test.fill(-1.0);
    fill_sequences(*b, *test, alphabet, o, data.X_test, yb, sb);
  }
  if (o.task == kexp::Task::Classification) {
    const auto labels = class_labels(ya, train.name);
    data.task = labels.task();
    map_labels(ya, sa, train.name, labels, train.name);
    if (b) map_labels(yb, sb, test->name, labels, train.name);
  }
  data.y = arma::vec(ya);
  if (b) data.y_test = arma::vec(yb);
  data.alphabet = alphabet.symbols();
  return data;
}

}  // namespace kexp_datasets
