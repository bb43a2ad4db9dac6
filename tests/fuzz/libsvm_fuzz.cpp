// Fuzzing the libsvm reader: arbitrary bytes as a data file, under two fixed sets of
// parameters, give kexp::Data that holds its invariants or a kexp::DataError; anything
// else (a crash, another exception, a broken invariant, a matrix beyond the limits) stops
// the fuzzer.
// Read again in stretches of 7 bytes, and again through the list of
// entries instead of straight into the matrix, the bytes must give the same data or the
// same first error (same_outcome.hpp).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>
#include <string>

#include "datasets/libsvm_reader.hpp"
#include "same_outcome.hpp"

namespace {

using kexp_datasets::LibsvmOptions;
using kexp_datasets::ReadTestFile;
using kexp_datasets::TextFile;

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "libsvm_fuzz: broken invariant: %s\n", what);
  std::abort();
}

void check(const kexp::Data& data, const LibsvmOptions& o) {
  const std::size_t d = data.X.n_rows;
  require(d >= 1 && d <= (o.dimension > 0 ? o.dimension : o.max_features),
          "1 ≤ d ≤ dimension or max_features");
  require(o.dimension == 0 || d == o.dimension, "d is the dimension when it is set");
  require(data.X.n_cols >= 1 && data.X.n_cols == data.y.n_elem, "n ≥ 1 samples, one y each");
  require(data.X.is_finite() && data.y.is_finite(), "every number finite");
  const std::size_t n = data.X.n_cols + data.X_test.n_cols;
  require(d * n * 8 <= o.max_matrix_bytes, "d × n × 8 ≤ max_matrix_bytes");
  if (data.has_test) {
    require(data.X_test.n_rows == d, "the test set has the dimension d");
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

/// The dimension from the file, regression, an error for NaN; no test file.
LibsvmOptions inferred_options() {
  LibsvmOptions o;
  o.max_features = 1000;
  o.max_matrix_bytes = 1 << 20;
  return o;
}

/// dimension: 50, classification, lines with NaN dropped; the same bytes as the test file.
LibsvmOptions fixed_options() {
  LibsvmOptions o = inferred_options();
  o.dimension = 50;
  o.task = kexp::Task::Classification;
  o.policy = kexp_datasets::NonFinitePolicy::Drop;
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  std::cerr.rdbuf(nullptr);  // the reports of dropped lines
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  for (const bool with_test : {false, true}) {
    LibsvmOptions o = with_test ? fixed_options() : inferred_options();
    const auto read = [&] {
      return kexp_fuzz::read_outcome(text, "txt", with_test,
                                     [&](const TextFile& train, const ReadTestFile& read_test) {
                                       return kexp_datasets::libsvm_data(train, read_test, o);
                                     });
    };
    const kexp_fuzz::Outcome whole = read();
    if (whole.data) check(*whole.data, o);
    if (!whole.data) require(whole.error.rfind("fuzz", 0) == 0, "a message names the file");
    o.stretch_bytes = 7;
    kexp_fuzz::require_same(whole, read(), "libsvm");
    o.stretch_bytes = kexp_datasets::kStretchBytes;
    o.direct = false;  // through the list of entries
    kexp_fuzz::require_same(whole, read(), "libsvm");
  }
  return 0;
}
