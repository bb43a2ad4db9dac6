// hmm_file: a model file read, and a malformed or missing one refused at its file and line
// with what is wrong.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/hmm_file.hpp"
#include "common/hmm_model.hpp"

namespace kexp::test {
namespace {

using kexp_kernels::Hmm;
using ::testing::HasSubstr;

/// A file `name` holding `text`, in a folder of the test's own.
std::filesystem::path write_file(const std::string& name, const std::string& text) {
  const std::filesystem::path folder = std::filesystem::path(testing::TempDir()) / "hmm_file_test";
  std::filesystem::create_directories(folder);
  std::filesystem::path file = folder / name;
  std::ofstream(file) << text;
  return file;
}

TEST(ReadHmm, ReadsAGoodFile) {
  const std::filesystem::path file = write_file("good.hmm",
                                                "# two states, three symbols\n"
                                                "\n"
                                                "pi 0.6 0.4   # initial\n"
                                                "B 0.5 0.3 0.2\n"
                                                "A 0.9 0.1\n"
                                                "\tA 0.2\t0.8\r\n"
                                                "B 0.1 0.1 0.8\n");
  const Hmm m = kexp_kernels::read_hmm(file);
  EXPECT_NO_THROW(m.check());
  EXPECT_TRUE(arma::approx_equal(m.pi, arma::vec{0.6, 0.4}, "absdiff", 1e-15));
  EXPECT_TRUE(arma::approx_equal(m.A, arma::mat{{0.9, 0.1}, {0.2, 0.8}}, "absdiff", 1e-15));
  EXPECT_TRUE(
      arma::approx_equal(m.B, arma::mat{{0.5, 0.3, 0.2}, {0.1, 0.1, 0.8}}, "absdiff", 1e-15));
}

TEST(ReadHmm, AMalformedFileNamesItselfAndTheLine) {
  const std::string good_A = "A 0.9 0.1\nA 0.2 0.8\n";
  const std::string good_B = "B 0.5 0.3 0.2\nB 0.1 0.1 0.8\n";
  struct Case {
    std::string name, text;
    int line;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"keyword", "pi 0.6 0.4\nC 0.5 0.5\n" + good_A + good_B, 2, "unknown keyword \"C\""},
      {"word", "pi 0.6 0.4\nA 0.9 x\nA 0.2 0.8\n" + good_B, 2, "\"x\" is not a number"},
      {"probability", "pi 0.6 0.4\n" + good_A + "B 1.5 -0.5 0\n" + "B 0.1 0.1 0.8\n", 4,
       "1.5 is not a probability"},
      {"sum", "pi 0.6 0.4\n" + good_A + "B 0.5 0.3 0.1\nB 0.1 0.1 0.8\n", 4,
       "sums to 0.9; its probabilities must sum to 1"},
      {"count", "pi 0.6 0.4\nA 0.5 0.3 0.2\nA 0.2 0.8\n" + good_B, 2,
       "this row of A has 3 numbers"},
      {"ragged", "pi 0.6 0.4\n" + good_A + "B 0.5 0.3 0.2\n\nB 0.2 0.8\n", 6,
       "the first (line 4) has 3"},
      {"rows", "pi 0.6 0.4\nA 0.9 0.1\n" + good_B, 2, "A has 1 row"},
      {"extra", "pi 0.6 0.4\n" + good_A + good_B + "B 0.1 0.1 0.8\n", 6, "B has 3 rows"},
      {"twice", "pi 0.6 0.4\n" + good_A + "pi 0.5 0.5\n" + good_B, 4, "a second pi line"},
      {"empty", "pi\n" + good_A + good_B, 1, "has no numbers"},
      {"no_B", "# no emissions\npi 0.6 0.4\n" + good_A, 4, "no B lines"},
      {"no_pi", good_A + good_B, 4, "no pi line"},
  };
  for (const Case& c : cases) {
    const std::filesystem::path file = write_file(c.name + ".hmm", c.text);
    try {
      (void)kexp_kernels::read_hmm(file);
      FAIL() << c.name << " read";
    } catch (const kexp::DataError& e) {
      EXPECT_EQ(e.where().file, file.string()) << c.name;
      EXPECT_EQ(e.where().line, c.line) << c.name;
      EXPECT_THAT(e.what(), HasSubstr(file.string() + ":" + std::to_string(c.line) + ":"))
          << c.name;
      EXPECT_THAT(e.what(), HasSubstr(c.says)) << c.name;
    }
  }
  const std::filesystem::path missing = write_file("x", "").parent_path() / "missing.hmm";
  try {
    (void)kexp_kernels::read_hmm(missing);
    FAIL() << "a missing file read";
  } catch (const kexp::DataError& e) {
    EXPECT_THAT(e.what(), HasSubstr(missing.string()));
  }
}

}  // namespace
}  // namespace kexp::test
