// What the reader fuzzers check beyond a reading's own invariants: a file read in stretches
// of a few bytes gives what it gives read in one stretch: the same data, bit for bit, or
// the same first error. (scripts/fuzz.sh runs the fuzzers on one thread each; the unit
// tests read stretches on several.)
#pragma once

#include <kexp/kexp.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "common/text_file.hpp"

namespace kexp_fuzz {

/// What a reading gave: its data, or the message of its error.
struct Outcome {
  std::optional<kexp::Data> data;
  std::string error;
};

/// The outcome of read(), which returns kexp::Data or throws kexp::DataError.
template <class Read>
Outcome outcome(const Read& read) {
  try {
    return {read(), {}};
  } catch (const kexp::DataError& e) {
    return {std::nullopt, e.what()};
  }
}

/// The outcome of parse(train, read_test) on `text` as the training file fuzz.<ext> and,
/// `with_test`, as its test file fuzz-test.<ext> too.
template <class Parse>
Outcome read_outcome(const std::string& text, const std::string& ext, bool with_test,
                     const Parse& parse) {
  return outcome([&] {
    using kexp_datasets::TextFile;
    const TextFile train = kexp_datasets::text_file("fuzz." + ext, "train", "fuzz." + ext, text);
    const kexp_datasets::ReadTestFile read_test = [&]() -> std::optional<TextFile> {
      if (!with_test) return std::nullopt;
      return kexp_datasets::text_file("fuzz-test." + ext, "test", "fuzz-test." + ext, text);
    };
    return parse(train, read_test);
  });
}

inline bool same(const arma::mat& a, const arma::mat& b) {
  return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::all(arma::vectorise(a == b));
}

/// Aborts, as the fuzzer's failure, unless the two outcomes are the same.
inline void require_same(const Outcome& whole, const Outcome& stretched, const char* reader) {
  bool ok = whole.data.has_value() == stretched.data.has_value() && whole.error == stretched.error;
  if (ok && whole.data) {
    const kexp::Data& a = *whole.data;
    const kexp::Data& b = *stretched.data;
    ok = same(a.X, b.X) && same(a.y, b.y) && a.has_test == b.has_test && same(a.X_test, b.X_test) &&
         same(a.y_test, b.y_test) && a.feature_names == b.feature_names;
  }
  if (ok) return;
  std::fprintf(stderr, "%s_fuzz: read in stretches, the file gave something else: %s against %s\n",
               reader, stretched.data ? "data" : stretched.error.c_str(),
               whole.data ? "data" : whole.error.c_str());
  std::abort();
}

}  // namespace kexp_fuzz
