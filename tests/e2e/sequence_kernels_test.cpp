// Sequences as samples, through the kexp program: HMM-generated sequences classified with
// the spectrum, HMM Fisher and HMM marginal kernels in both forms where a map exists (the
// forms predict alike), a sequences file read with its alphabet, and the mismatches the
// plan refuses before anything runs: a vector kernel on sequences, a sequence kernel on
// vectors, standardized sequences, a bad line of a sequences file, a bad HMM model file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

constexpr const char* kConfig = R"(experiment: sequences
seed: 2
dataset:
  plugin: hmm
  n: 160
  states: 2
  symbols: 4
  min_length: 30
  max_length: 30
  separation: 0.8
kernels:
  - plugin: spectrum
    k: [1, 2]
  - plugin: hmm_fisher
    states: 2
  - plugin: hmm_marginal
    states: 2
solvers:
  - plugin: kernel_ridge_classifier
    lambda: 0.1
  - plugin: primal_ridge
    lambda: 0.1
)";

TEST(SequenceKernels, RunInBothFormsAndThePrimalAndDualFormsPredictAlike) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  // spectrum ×2 and hmm_fisher in both forms; hmm_marginal has no map: dual only
  ASSERT_EQ(t.rows.size(), 7U);
  const std::size_t status = column(t, "status"), form = column(t, "form"),
                    diff = column(t, "prediction_max_diff"), kernel = column(t, "kernel"),
                    fit = column(t, "kernel_fit_seconds");
  std::size_t paired = 0;
  for (const auto& row : t.rows) {
    ASSERT_EQ(row[status], "ok") << row[kernel];
    EXPECT_GT(std::stod(row[fit]), 0.0) << "every sequence kernel is fitted: " << row[kernel];
    if (row[form] == "primal" && !row[diff].empty()) {
      EXPECT_LE(std::stod(row[diff]), 1e-6) << row[kernel];
      ++paired;
    }
  }
  EXPECT_EQ(paired, 3U) << "each primal cell is paired with its dual counterpart";
}

TEST(SequenceKernels, AVectorKernelOnSequencesIsRefusedBeforeAnythingRuns) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: mismatch
dataset:
  plugin: hmm
  n: 40
kernels:
  - plugin: gaussian
solvers:
  - plugin: kernel_ridge
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:6"));
  EXPECT_THAT(r.err, HasSubstr("kernel plugin 'gaussian' takes vectors and dataset plugin 'hmm' "
                               "yields sequences"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out" / "results.csv"));
}

TEST(SequenceKernels, ASequenceKernelOnVectorsAndStandardizedSequencesAreRefused) {
  TempDir dir;
  dir.write("vectors.yaml", R"(experiment: mismatch
dataset:
  plugin: friedman1
  n: 40
kernels:
  - sum:
      - plugin: linear
      - plugin: spectrum
solvers:
  - plugin: kernel_ridge
)");
  const CommandResult r = run_kexp("run vectors.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kernel plugin 'spectrum' takes sequences and dataset plugin "
                               "'friedman1' yields vectors"));

  dir.write("standardized.yaml", R"(experiment: standardized
dataset:
  plugin: hmm
  n: 40
  standardize: true
kernels:
  - plugin: spectrum
solvers:
  - plugin: kernel_ridge
)");
  const CommandResult s = run_kexp("run standardized.yaml --out out --quiet", dir.path());
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_THAT(s.err, HasSubstr("standardized.yaml:5"));
  EXPECT_THAT(s.err, HasSubstr("remove `standardize: true`"));
}

TEST(SequenceKernels, ASequencesFileIsReadWithItsAlphabetAndABadLineIsAnErrorAtItsPlace) {
  TempDir dir;
  std::string lines = "# label, then the sequence\n";
  // two classes told apart by their make-up: A-rich against T-rich
  for (int i = 0; i < 30; ++i) {
    lines += "+1 AAGAT" + std::string(static_cast<std::size_t>(i % 5), 'A') + "\n";
    lines += "-1 TTCTA" + std::string(static_cast<std::size_t>(i % 4), 'T') + "\n";
  }
  dir.write("seq.txt", lines);
  dir.write("exp.yaml", R"(experiment: file
dataset:
  plugin: sequences
  train: seq.txt
kernels:
  - plugin: spectrum
    k: 2
    normalize: true
solvers:
  - plugin: kernel_ridge_classifier
    lambda: 0.01
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 1U);
  EXPECT_EQ(t.rows[0][column(t, "test_accuracy")], "1");

  dir.write("seq.txt", lines + "+1 AAGXT\n");
  dir.write("declared.yaml", R"(experiment: declared
dataset:
  plugin: sequences
  train: seq.txt
  alphabet: ACGT
kernels:
  - plugin: spectrum
solvers:
  - plugin: kernel_ridge_classifier
)");
  const CommandResult bad = run_kexp("run declared.yaml --out out2 --quiet", dir.path());
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_THAT(bad.err, HasSubstr("seq.txt:62:7"));
  EXPECT_THAT(bad.err, HasSubstr("the symbol 'X' is not in the alphabet declared by alphabet"));
}

TEST(SequenceKernels, ABadModelFileStopsTheRunBeforeAnythingRunsAtItsLine) {
  // A NaN, a negative probability, a row that does not sum to 1, and a model of another
  // size: each exit 2 with the file and line, no result folder; a good file runs.
  const std::string good =
      "pi 0.5 0.5\nA 0.9 0.1\nA 0.2 0.8\nB 0.25 0.25 0.25 0.25\n"
      "B 0.4 0.3 0.2 0.1\n";
  struct Case {
    const char* name;
    std::string text;
    const char* said;
  };
  const Case cases[] = {
      {"nan.txt", "pi nan 0.5\nA 0.9 0.1\nA 0.2 0.8\nB 0.25 0.25 0.25 0.25\nB 0.4 0.3 0.2 0.1\n",
       "nan.txt:1"},
      {"negative.txt",
       "pi 0.5 0.5\nA -0.1 1.1\nA 0.2 0.8\nB 0.25 0.25 0.25 0.25\nB 0.4 0.3 0.2 0.1\n",
       "negative.txt:2"},
      {"sum.txt", "pi 0.5 0.5\nA 0.9 0.1\nA 0.2 0.9\nB 0.25 0.25 0.25 0.25\nB 0.4 0.3 0.2 0.1\n",
       "sum.txt:3"},
      {"three.txt",
       "pi 0.4 0.3 0.3\nA 0.8 0.1 0.1\nA 0.1 0.8 0.1\nA 0.1 0.1 0.8\nB 0.25 0.25 0.25 0.25\n"
       "B 0.4 0.3 0.2 0.1\nB 0.1 0.2 0.3 0.4\n",
       "has 3 states; the kernel has states: 2"},
  };
  for (const char* kernel : {"hmm_fisher", "hmm_marginal"}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(kernel) + " " + c.name);
      TempDir dir;
      dir.write(c.name, c.text);
      dir.write("good.txt", good);
      const std::string config =
          std::string(R"(experiment: model-file
seed: 2
dataset: {plugin: hmm, n: 40, states: 2, symbols: 4, min_length: 10, max_length: 10}
kernels:
  - plugin: )") +
          kernel +
          "\n    states: 2\n    file: FILE\nsolvers:\n  - plugin: kernel_ridge_classifier\n";
      std::string bad = config;
      bad.replace(bad.find("FILE"), 4, c.name);
      dir.write("bad.yaml", bad);
      const CommandResult r = run_kexp("run bad.yaml --out out --quiet", dir.path());
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, HasSubstr(c.said));
      EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));
      std::string fine = config;
      fine.replace(fine.find("FILE"), 4, "good.txt");
      dir.write("good.yaml", fine);
      const CommandResult ok = run_kexp("run good.yaml --out good --quiet", dir.path());
      EXPECT_EQ(ok.exit_code, 0) << ok.err;
    }
  }
}

}  // namespace
}  // namespace kexp::test
