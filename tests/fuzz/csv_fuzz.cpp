// Fuzzing the csv reader: arbitrary bytes as a data file, under two fixed sets of
// parameters, give kexp::Data that holds its invariants or a kexp::DataError; anything
// else (a crash, another exception, a broken invariant) stops the fuzzer.
// Read again in stretches of 7 bytes, the bytes must give the same data or the same first
// error (same_outcome.hpp).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>
#include <string>

#include "datasets/csv_reader.hpp"
#include "same_outcome.hpp"

namespace {

using kexp_datasets::CsvOptions;
using kexp_datasets::ReadTestFile;
using kexp_datasets::TextFile;

constexpr std::size_t kMaxFeatures = 1000;

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "csv_fuzz: broken invariant: %s\n", what);
  std::abort();
}

void check(const kexp::Data& data, const CsvOptions& o) {
  require(data.X.n_rows >= 1 && data.X.n_rows <= o.max_features, "1 ≤ d ≤ max_features");
  require(data.X.n_cols >= 1 && data.X.n_cols == data.y.n_elem, "n ≥ 1 samples, one y each");
  require(data.X.is_finite() && data.y.is_finite(), "every number finite");
  require(data.feature_names.empty() || data.feature_names.size() == data.X.n_rows,
          "a name for every feature");
  if (data.has_test) {
    require(data.X_test.n_rows == data.X.n_rows, "the test set has the dimension d");
    require(data.X_test.n_cols == data.y_test.n_elem, "one y for every test sample");
    require(data.X_test.is_finite() && data.y_test.is_finite(), "every test number finite");
  }
  if (o.task == kexp::Task::Classification) {
    // Two labels become ±1 (Task::Classification); three or more are kept as they are
    // (Task::Multiclass), and every test label is one of the training set's.
    std::set<double> labels(data.y.begin(), data.y.end());
    if (data.task == kexp::Task::Classification) {
      require(labels == std::set<double>{-1.0, 1.0}, "binary labels are -1 and +1, both seen");
    } else {
      require(data.task == kexp::Task::Multiclass, "a classification set is binary or multiclass");
      require(labels.size() >= 3, "a multiclass set has three labels at least");
    }
    for (const double v : data.y_test)
      require(labels.count(v) == 1, "test labels are training labels");
  } else {
    require(data.task == kexp::Task::Regression, "the task asked for is the task given");
  }
}

/// Header auto, comma, last column the target, an error for NaN; no test file.
CsvOptions comma_options() {
  CsvOptions o;
  o.max_features = kMaxFeatures;
  return o;
}

/// Whitespace, the first column the target, classification, rows with NaN dropped; the
/// same bytes as the test file.
CsvOptions whitespace_options() {
  CsvOptions o;
  o.target = "0";
  o.delimiter = 0;
  o.task = kexp::Task::Classification;
  o.policy = kexp_datasets::NonFinitePolicy::Drop;
  o.max_features = kMaxFeatures;
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  std::cerr.rdbuf(nullptr);  // the reports of dropped rows
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  for (const bool with_test : {false, true}) {
    CsvOptions o = with_test ? whitespace_options() : comma_options();
    const auto read = [&] {
      return kexp_fuzz::read_outcome(text, "csv", with_test,
                                     [&](const TextFile& train, const ReadTestFile& read_test) {
                                       return kexp_datasets::csv_data(train, read_test, o);
                                     });
    };
    const kexp_fuzz::Outcome whole = read();
    if (whole.data) check(*whole.data, o);
    if (!whole.data) require(whole.error.rfind("fuzz", 0) == 0, "a message names the file");
    o.stretch_bytes = 7;
    kexp_fuzz::require_same(whole, read(), "csv");
  }
  return 0;
}
