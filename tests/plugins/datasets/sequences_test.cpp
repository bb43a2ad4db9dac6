// The sequences dataset: a small file read by hand in both tokenisations, the alphabet
// declared or read, a test file padded to the common length, and bad lines as errors at
// file:line:column.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "plugins/datasets/loading.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

class Sequences : public ::testing::Test {
 protected:
  TempDir dir;
  std::string at(const std::string& file, const std::string& where) const {
    return (dir.path() / file).string() + ":" + where + ": ";
  }
};

TEST_F(Sequences, ReadsCharactersWithTheAlphabetOfTheFileInByteOrder) {
  dir.write("s.txt", "# two sequences\n+1 GATTACA\n\n-1  CAT \n");
  const Data data = load_dataset("sequences", {{"train", "s.txt"}}, dir.path());
  EXPECT_EQ(data.alphabet, (std::vector<std::string>{"A", "C", "G", "T"}));
  ASSERT_EQ(data.X.n_rows, 7U);
  ASSERT_EQ(data.X.n_cols, 2U);
  // GATTACA → 2 0 3 3 0 1 0; CAT → 1 0 3, then −1
  const arma::mat expected = {{2, 1}, {0, 0}, {3, 3}, {3, -1}, {0, -1}, {1, -1}, {0, -1}};
  EXPECT_TRUE(arma::approx_equal(data.X, expected, "absdiff", 0.0)) << data.X;
  EXPECT_EQ(data.y[0], 1.0);
  EXPECT_EQ(data.y[1], -1.0);
  EXPECT_EQ(data.task, Task::Classification);
}

TEST_F(Sequences, ReadsWordsAndADeclaredAlphabetAndPadsTheTestSetToTheLongest) {
  dir.write("train.txt", "0 Met Gly\n1 Gly\n");
  dir.write("test.txt", "1 Gly Gly Met Ala\n");
  const Data data = load_dataset("sequences",
                                 {{"train", "train.txt"},
                                  {"test", "test.txt"},
                                  {"tokens", "words"},
                                  {"alphabet", "Gly Met Ala"}},
                                 dir.path());
  EXPECT_EQ(data.alphabet, (std::vector<std::string>{"Gly", "Met", "Ala"}));
  ASSERT_TRUE(data.has_test);
  ASSERT_EQ(data.X.n_rows, 4U);
  ASSERT_EQ(data.X_test.n_rows, 4U);
  EXPECT_TRUE(
      arma::approx_equal(data.X, arma::mat{{1, 0}, {0, -1}, {-1, -1}, {-1, -1}}, "absdiff", 0.0))
      << data.X;
  EXPECT_TRUE(arma::approx_equal(data.X_test, arma::mat(arma::vec{0, 0, 1, 2}), "absdiff", 0.0));
  EXPECT_EQ(data.y[0], -1.0);  // labels 0 and 1: the smaller is −1
  EXPECT_EQ(data.y_test[0], 1.0);
}

TEST_F(Sequences, BadLinesAreErrorsAtTheirPlace) {
  dir.write("a.txt", "+1 ACGT\nx ACGT\n");
  EXPECT_THAT(data_error("sequences", {{"train", "a.txt"}}, dir.path()),
              HasSubstr(at("a.txt", "2:1") + "the target 'x' is not a finite number"));
  dir.write("b.txt", "+1 ACGT\n-1\n");
  EXPECT_THAT(data_error("sequences", {{"train", "b.txt"}}, dir.path()),
              HasSubstr(at("b.txt", "2:3") + "the line has a target and no sequence after it"));
  dir.write("c.txt", "+1 AC GT\n-1 A\n");
  EXPECT_THAT(data_error("sequences", {{"train", "c.txt"}}, dir.path()),
              HasSubstr(at("c.txt", "1:6") + "the sequence has a space in it"));
  dir.write("d.txt", "+1 ACGT\n-1 ACNT\n");
  EXPECT_THAT(data_error("sequences", {{"train", "d.txt"}, {"alphabet", "ACGT"}}, dir.path()),
              HasSubstr(at("d.txt", "2:6") + "the symbol 'N' is not in the alphabet"));
  EXPECT_THAT(data_error("sequences", {{"train", "d.txt"}, {"max_length", "3"}}, dir.path()),
              HasSubstr(at("d.txt", "1:4") + "the sequence has 4 symbols, more than max_length 3"));
  EXPECT_THAT(data_error("sequences", {{"train", "d.txt"}, {"alphabet", "ACGTA"}}, dir.path()),
              HasSubstr("alphabet: the symbol 'A' is given twice"));
  dir.write("e.txt", "+1 ACGT\n+1 AC\n");
  EXPECT_THAT(data_error("sequences", {{"train", "e.txt"}}, dir.path()),
              HasSubstr("task classification needs two distinct labels at least, found 1"));
  EXPECT_THAT(data_error("sequences", {{"train", "d.txt"}, {"max_matrix_bytes", "63"}}, dir.path()),
              HasSubstr("the 2 sequences, each stored padded to the longest (4 symbols), would "
                        "take 64 bytes, more than max_matrix_bytes 63 bytes"));
  dir.write("f.txt", "# only a comment\n");
  EXPECT_THAT(data_error("sequences", {{"train", "f.txt"}}, dir.path()),
              HasSubstr("the file has no sequence"));
}

TEST(HmmDataset, SamplesBalancedClassesOfSequencesWithinTheLengthRangeAndIsDeterministic) {
  const TextParams params = {
      {"n", "101"}, {"states", "3"}, {"symbols", "5"}, {"min_length", "4"}, {"max_length", "9"}};
  const Data a = load_dataset("hmm", params, {}, 7);
  EXPECT_EQ(a.alphabet, (std::vector<std::string>{"a", "b", "c", "d", "e"}));
  ASSERT_EQ(a.X.n_rows, 9U);
  ASSERT_EQ(a.X.n_cols, 101U);
  EXPECT_EQ(arma::accu(a.y == -1.0), 51U);
  EXPECT_EQ(arma::accu(a.y == 1.0), 50U);
  for (arma::uword j = 0; j < a.X.n_cols; ++j) {
    arma::uword length = 0;
    while (length < a.X.n_rows && a.X(length, j) != -1.0) ++length;
    EXPECT_GE(length, 4U);
    for (arma::uword t = 0; t < a.X.n_rows; ++t) {
      const double v = a.X(t, j);
      if (t < length) {
        EXPECT_TRUE(v >= 0 && v < 5 && v == std::floor(v)) << v;
      } else {
        EXPECT_EQ(v, -1.0);
      }
    }
  }
  const Data b = load_dataset("hmm", params, {}, 7);
  EXPECT_TRUE(arma::approx_equal(a.X, b.X, "absdiff", 0.0));
  const Data c = load_dataset("hmm", params, {}, 8);
  EXPECT_FALSE(arma::approx_equal(a.X, c.X, "absdiff", 0.0)) << "another seed, other sequences";
  const Data three = load_dataset("hmm", {{"n", "9"}, {"models", "3"}}, {}, 7);
  EXPECT_EQ(three.task, Task::Regression);
  EXPECT_EQ(three.y[5], 2.0) << "with three models y is the model's index";
}

}  // namespace
}  // namespace kexp::test
