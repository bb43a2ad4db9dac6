// The HMM model file (common/hmm_file.hpp).
#include "common/hmm_file.hpp"

#include <kexp/error.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/text_file.hpp"

namespace kexp_kernels {

namespace {

/// One line of a model file, split into words.
struct HmmFileWord {
  std::string_view text;
  int column = 0;  ///< from 1
};

std::vector<HmmFileWord> split_words(std::string_view line) {
  std::vector<HmmFileWord> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) {
      words.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
    }
  }
  return words;
}

/// A row of π, A or B as read, with the line it is on.
struct HmmFileRow {
  std::vector<double> values;
  int line = 0;
};

}  // namespace

Hmm read_hmm(const std::filesystem::path& file) {
  // Only a regular file of a size a model can have: never a pipe, a device or a folder.
  constexpr std::uint64_t kMaxBytes = 64U << 20U;
  const kexp_datasets::TextFile text =
      kexp_datasets::read_text_file(file, "file", file.string(), kMaxBytes);
  const std::string& name = text.name;
  kexp_datasets::LineReader lines(text);
  std::optional<HmmFileRow> pi;
  std::vector<HmmFileRow> A_rows, B_rows;
  kexp_datasets::TextLine next;
  int number = 0;
  while (lines.next(next)) {
    number = next.number;
    const std::string_view line = next.text.substr(0, next.text.find('#'));
    const std::vector<HmmFileWord> words = split_words(line);
    if (words.empty()) continue;
    const std::string_view keyword = words[0].text;
    if (keyword != "pi" && keyword != "A" && keyword != "B") {
      throw kexp::DataError(kexp::SourceLocation{name, number, words[0].column},
                            "unknown keyword \"" + std::string(keyword) +
                                "\"; a line starts with pi, A or B (or # for a comment)");
    }
    if (words.size() == 1) {
      throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                            "the " + std::string(keyword) +
                                " line has no numbers; write its probabilities after the keyword");
    }
    HmmFileRow row;
    row.line = number;
    for (std::size_t w = 1; w < words.size(); ++w) {
      const std::string_view word = words[w].text;
      double v = 0;
      const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), v);
      const kexp::SourceLocation at{name, number, words[w].column};
      if (error != std::errc() || end != word.data() + word.size()) {
        throw kexp::DataError(at, "\"" + std::string(word) + "\" is not a number; write " +
                                      std::string(keyword) + "'s probabilities as decimals");
      }
      if (!(v >= 0.0 && v <= 1.0)) {
        throw kexp::DataError(at, std::string(word) + " is not a probability; each number of " +
                                      std::string(keyword) + " must be in [0, 1]");
      }
      row.values.push_back(v);
    }
    double sum = 0;
    for (const double v : row.values) sum += v;
    if (std::abs(sum - 1.0) > 1e-6) {
      throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                            "this " + std::string(keyword) + " line sums to " +
                                detail::hmm_number(sum) + "; its probabilities must sum to 1");
    }
    for (double& v : row.values) v /= sum;
    if (keyword == "pi") {
      if (pi) {
        throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                              "a second pi line (the first is line " + std::to_string(pi->line) +
                                  "); write the initial probabilities once");
      }
      pi = std::move(row);
    } else {
      (keyword == "A" ? A_rows : B_rows).push_back(std::move(row));
    }
  }
  // A missing block is reported at the end of the file, where it would be added.
  number = lines.mark().line;
  if (!pi) {
    throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                          "no pi line; the file needs one line \"pi p1 ... pS\" with the "
                          "initial probabilities of the S states");
  }
  const std::size_t S = pi->values.size();
  const std::string states = "pi (line " + std::to_string(pi->line) +
                             ") gives S = " + std::to_string(S) + (S == 1 ? " state" : " states");
  const auto check_rows = [&](const std::vector<HmmFileRow>& rows, const char* block,
                              const char* what) {
    if (rows.empty()) {
      throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                            std::string("no ") + block + " lines; " + states + ", so write " +
                                std::to_string(S) + " lines \"" + block + " ...\", one per " +
                                "state, with " + what);
    }
    if (rows.size() != S) {
      const int line = rows.size() > S ? rows[S].line : rows.back().line;
      throw kexp::DataError(kexp::SourceLocation{name, line, 0},
                            std::string(block) + " has " + std::to_string(rows.size()) +
                                (rows.size() == 1 ? " row" : " rows") + " and " + states +
                                "; write one " + block + " line per state");
    }
  };
  check_rows(A_rows, "A", "the S probabilities of moving from that state to each state");
  check_rows(B_rows, "B", "the M probabilities of emitting each symbol in that state");
  for (const HmmFileRow& row : A_rows) {
    if (row.values.size() != S) {
      throw kexp::DataError(kexp::SourceLocation{name, row.line, 0},
                            "this row of A has " + std::to_string(row.values.size()) +
                                " numbers and " + states +
                                "; each row of A needs one probability per state");
    }
  }
  const std::size_t M = B_rows.front().values.size();
  for (const HmmFileRow& row : B_rows) {
    if (row.values.size() != M) {
      throw kexp::DataError(kexp::SourceLocation{name, row.line, 0},
                            "this row of B has " + std::to_string(row.values.size()) +
                                " numbers and the first (line " +
                                std::to_string(B_rows.front().line) + ") has " + std::to_string(M) +
                                "; each row of B needs one probability per symbol");
    }
  }
  Hmm m;
  m.pi = arma::vec(pi->values);
  m.A.set_size(S, S);
  m.B.set_size(S, M);
  for (std::size_t i = 0; i < S; ++i) {
    for (std::size_t j = 0; j < S; ++j) m.A(i, j) = A_rows[i].values[j];
    for (std::size_t s = 0; s < M; ++s) m.B(i, s) = B_rows[i].values[s];
  }
  return m;
}

}  // namespace kexp_kernels
