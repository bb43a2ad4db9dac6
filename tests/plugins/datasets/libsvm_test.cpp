// The libsvm dataset: hand-checked parsing of a small file, the test file padded to the
// training dimension, and every kind of bad input, each a DataError that names the file,
// line and column.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include "datasets/libsvm_reader.hpp"
#include "plugins/datasets/loading.hpp"

namespace kexp::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

class Libsvm : public ::testing::Test {
 protected:
  TempDir dir;
  std::string at(const std::string& file, const std::string& where) const {
    return (dir.path() / file).string() + ":" + where + ": ";
  }
};

TEST_F(Libsvm, ReadsATinyFileByHand) {
  dir.write("a.txt", "+1 1:0.5 3:-2\n-1 2:4\n# a comment line\n\n2 1:1e1  # a trailing comment\n");
  const Data data = load_dataset("libsvm", {{"train", "a.txt"}}, dir.path());
  const arma::mat X_expected = {{0.5, 0.0, 10.0}, {0.0, 4.0, 0.0}, {-2.0, 0.0, 0.0}};
  ASSERT_EQ(data.X.n_rows, 3U);
  ASSERT_EQ(data.X.n_cols, 3U);
  EXPECT_TRUE(arma::approx_equal(data.X, X_expected, "absdiff", 0.0));
  EXPECT_EQ(data.y[0], 1.0);
  EXPECT_EQ(data.y[1], -1.0);
  EXPECT_EQ(data.y[2], 2.0);
  EXPECT_FALSE(data.has_test);
  EXPECT_EQ(data.task, Task::Regression);
}

TEST_F(Libsvm, ALineWithOnlyALabelIsTheZeroSample) {
  dir.write("z.txt", "3\n1 2:1\n");
  const Data data = load_dataset("libsvm", {{"train", "z.txt"}}, dir.path());
  ASSERT_EQ(data.X.n_rows, 2U);
  EXPECT_EQ(arma::accu(arma::abs(data.X.col(0))), 0.0);
  EXPECT_EQ(data.y[0], 3.0);
}

TEST_F(Libsvm, TestFileIsPaddedToTheTrainingDimension) {
  dir.write("train.txt", "1 1:1 4:4\n0 2:2\n");
  dir.write("test.txt", "0 2:7\n1 1:5\n");
  const Data data =
      load_dataset("libsvm", {{"train", "train.txt"}, {"test", "test.txt"}}, dir.path());
  ASSERT_TRUE(data.has_test);
  ASSERT_EQ(data.X_test.n_rows, 4U);
  ASSERT_EQ(data.X_test.n_cols, 2U);
  EXPECT_EQ(data.X_test(1, 0), 7.0);
  EXPECT_EQ(data.X_test(0, 1), 5.0);
  EXPECT_EQ(arma::accu(arma::abs(data.X_test)), 12.0);
  EXPECT_EQ(data.y_test[0], 0.0);
}

TEST_F(Libsvm, TestIndexBeyondTheTrainingDimensionIsAnErrorUnlessDimensionCoversIt) {
  dir.write("train.txt", "1 1:1 3:3\n");
  dir.write("test.txt", "1 1:1\n0 2:1 5:2\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "train.txt"}, {"test", "test.txt"}}, dir.path()),
              HasSubstr(at("test.txt", "2:7") +
                        "index 5 is beyond the dimension of the training set, 3 (its largest "
                        "index); set dimension: 5 (or more)"));
  const Data data = load_dataset(
      "libsvm", {{"train", "train.txt"}, {"test", "test.txt"}, {"dimension", "6"}}, dir.path());
  EXPECT_EQ(data.X.n_rows, 6U);
  EXPECT_EQ(data.X_test.n_rows, 6U);
  EXPECT_EQ(data.X_test(4, 1), 2.0);
  EXPECT_THAT(data_error("libsvm", {{"train", "test.txt"}, {"dimension", "4"}}, dir.path()),
              HasSubstr(at("test.txt", "2:7") + "index 5 is beyond dimension 4"));
}

TEST_F(Libsvm, ClassificationMapsTwoLabelsToPlusMinusOne) {
  dir.write("c.txt", "2 1:1\n1 1:2\n2 1:3\n");
  const Data data =
      load_dataset("libsvm", {{"train", "c.txt"}, {"task", "classification"}}, dir.path());
  EXPECT_EQ(data.task, Task::Classification);
  EXPECT_EQ(data.y[0], 1.0);
  EXPECT_EQ(data.y[1], -1.0);
  dir.write("c3.txt", "2 1:1\n1 1:2\n3 1:3\n");
  const Data three =
      load_dataset("libsvm", {{"train", "c3.txt"}, {"task", "classification"}}, dir.path());
  EXPECT_EQ(three.task, Task::Multiclass);  // LIBSVM's multi-class files: labels kept
  EXPECT_EQ(three.y[0], 2.0);
  EXPECT_EQ(three.y[2], 3.0);
  dir.write("c1.txt", "2 1:1\n2 1:2\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "c1.txt"}, {"task", "classification"}}, dir.path()),
              HasSubstr("two distinct labels at least, found 1 (2)"));
}

TEST_F(Libsvm, IndexOutOfOrder) {
  dir.write("o.txt", "1 1:1 2:2\n1 3:1 2:2\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "o.txt"}}, dir.path()),
              HasSubstr(at("o.txt", "2:7") +
                        "index 2 is not greater than the index before it on this line (3); "
                        "indices must increase"));
  dir.write("dup.txt", "1 2:1 2:2\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "dup.txt"}}, dir.path()),
              HasSubstr(at("dup.txt", "1:7") + "index 2 is not greater"));
}

TEST_F(Libsvm, IndexNotANumberOrZero) {
  dir.write("a.txt", "1 1:1\n-1 x:2\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "a.txt"}}, dir.path()),
              HasSubstr(at("a.txt", "2:4") + "index 'x' is not a whole number ≥ 1"));
  dir.write("zero.txt", "1 0:1\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "zero.txt"}}, dir.path()),
              HasSubstr(at("zero.txt", "1:3") + "index '0' is not a whole number ≥ 1 (LIBSVM "
                                                "indices count from 1)"));
  dir.write("neg.txt", "1 -2:1\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "neg.txt"}}, dir.path()),
              HasSubstr(at("neg.txt", "1:3") + "index '-2' is not a whole number"));
  dir.write("frac.txt", "1 1.5:1\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "frac.txt"}}, dir.path()),
              HasSubstr(at("frac.txt", "1:3") + "index '1.5' is not a whole number"));
}

TEST_F(Libsvm, ValueOrLabelNotANumberAndMalformedPairs) {
  dir.write("v.txt", "1 1:1 2:abc\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "v.txt"}}, dir.path()),
              HasSubstr(at("v.txt", "1:9") + "value 'abc' of index 2 is not a number"));
  dir.write("e.txt", "1 1:\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "e.txt"}}, dir.path()),
              HasSubstr(at("e.txt", "1:5") + "value '' of index 1 is not a number"));
  dir.write("l.txt", "1 1:1\nyes 1:1\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "l.txt"}}, dir.path()),
              HasSubstr(at("l.txt", "2:1") + "label 'yes' is not a number"));
  dir.write("nolabel.txt", "1:1 2:2\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "nolabel.txt"}}, dir.path()),
              HasSubstr(at("nolabel.txt", "1:1") + "the line starts with '1:1', not with a label"));
  dir.write("colon.txt", "1 1:1 7\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "colon.txt"}}, dir.path()),
              HasSubstr(at("colon.txt", "1:7") + "'7' is not <index>:<value>"));
}

TEST_F(Libsvm, NanInfAreErrorsByDefaultAndDroppedWithACountWhenAsked) {
  dir.write("n.txt", "1 1:1\n2 1:nan\ninf 2:1\n4 2:4\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "n.txt"}}, dir.path()),
              AllOf(HasSubstr(at("n.txt", "2:5") + "value nan (not finite)"),
                    HasSubstr("set on_nonfinite: drop")));
  ::testing::internal::CaptureStderr();
  const Data data =
      load_dataset("libsvm", {{"train", "n.txt"}, {"on_nonfinite", "drop"}}, dir.path());
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(data.X.n_cols, 2U);
  EXPECT_EQ(data.y[0], 1.0);
  EXPECT_EQ(data.y[1], 4.0);
  EXPECT_EQ(data.X(1, 1), 4.0);
  EXPECT_THAT(err, HasSubstr("kexp: dataset libsvm: dropped 2 of 4 rows of " +
                             (dir.path() / "n.txt").string()));
  EXPECT_THAT(err, HasSubstr("(lines 2, 3; on_nonfinite: drop)"));
}

TEST_F(Libsvm, AnIndexBeyondMaxFeaturesIsAnErrorBeforeAnyMemoryIsTaken) {
  // 10 000 001 would make a dense d = 10⁷, 2³¹ and more would not fit the index type
  dir.write("big.txt", "1 1:1\n-1 2:1 10000001:1\n");
  EXPECT_EQ(data_error("libsvm", {{"train", "big.txt"}}, dir.path()),
            at("big.txt", "2:8") +
                "index 10000001 is beyond max_features, 100000; the samples are stored dense, "
                "with a row for every index up to the largest: set max_features in the dataset "
                "block if the data has that many features");
  dir.write("int.txt", "1 2147483648:1\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "int.txt"}}, dir.path()),
              HasSubstr(at("int.txt", "1:3") + "index 2147483648 is beyond max_features"));
  dir.write("huge.txt", "1 1:1 99999999999999999999999999:1\n");
  EXPECT_THAT(
      data_error("libsvm", {{"train", "huge.txt"}}, dir.path()),
      HasSubstr(at("huge.txt", "1:7") + "index 99999999999999999999999999 is beyond max_features"));
  EXPECT_THAT(
      data_error("libsvm", {{"train", "huge.txt"}, {"dimension", "5"}}, dir.path()),
      HasSubstr(at("huge.txt", "1:7") + "index 99999999999999999999999999 is beyond dimension 5"));
  // raised, the limit admits the index
  dir.write("wide.txt", "1 1:1 150000:2\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "wide.txt"}}, dir.path()),
              HasSubstr(at("wide.txt", "1:7") + "index 150000 is beyond max_features, 100000"));
  const Data data =
      load_dataset("libsvm", {{"train", "wide.txt"}, {"max_features", "150000"}}, dir.path());
  EXPECT_EQ(data.X.n_rows, 150000U);
  EXPECT_EQ(data.X(149999, 0), 2.0);
  EXPECT_THAT(config_error("libsvm", {{"train", "a.txt"}, {"max_features", "0"}}),
              HasSubstr("test.max_features must be"));
}

TEST_F(Libsvm, ADenseMatrixLargerThanMaxMatrixBytesIsRefused) {
  // d = 1000, n = 3: 24 000 bytes
  dir.write("m.txt", "1 1000:1\n2 1:1\n");
  dir.write("t.txt", "3 2:1\n");
  EXPECT_EQ(
      data_error("libsvm", {{"train", "m.txt"}, {"test", "t.txt"}, {"max_matrix_bytes", "20000"}},
                 dir.path()),
      (dir.path() / "m.txt").string() +
          ": the samples stored dense take 24000 bytes (23.4 KiB) (d = 1000 features × "
          "n = 3 samples × 8 bytes), more than max_matrix_bytes, 20000 bytes (19.5 KiB); "
          "set max_matrix_bytes in the dataset block to allow more, or lower the "
          "dimension");
  const Data data = load_dataset(
      "libsvm", {{"train", "m.txt"}, {"test", "t.txt"}, {"max_matrix_bytes", "24000"}}, dir.path());
  EXPECT_EQ(data.X.n_rows, 1000U);
  EXPECT_EQ(data.X_test.n_cols, 1U);
}

TEST_F(Libsvm, OnlyRegularFilesOfAtMostMaxFileBytesAreRead) {
  EXPECT_EQ(data_error("libsvm", {{"train", "/dev/zero"}}, dir.path()),
            "/dev/zero: is a character device, not a regular file (train: /dev/zero); data is "
            "read only from regular files");
  dir.write("a.txt", "1 1:1\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "a.txt"}, {"test", "/dev/urandom"}}, dir.path()),
              HasSubstr("/dev/urandom: is a character device, not a regular file (test: "
                        "/dev/urandom)"));
  ASSERT_EQ(::mkfifo((dir.path() / "pipe.txt").c_str(), 0600), 0);
  EXPECT_THAT(data_error("libsvm", {{"train", "pipe.txt"}}, dir.path()),
              HasSubstr("pipe.txt: is a named pipe (FIFO), not a regular file (train: pipe.txt)"));
  EXPECT_EQ(data_error("libsvm", {{"train", "a.txt"}, {"max_file_bytes", "5"}}, dir.path()),
            (dir.path() / "a.txt").string() +
                ": the file has 6 bytes, more than max_file_bytes, 5 bytes; set max_file_bytes "
                "in the dataset block to read a larger file (train: a.txt)");
}

TEST_F(Libsvm, MissingEmptyOrFeaturelessFile) {
  EXPECT_THAT(data_error("libsvm", {{"train", "none.txt"}}, dir.path()),
              HasSubstr((dir.path() / "none.txt").string() + ": the file does not exist"));
  dir.write("empty.txt", "");
  EXPECT_THAT(data_error("libsvm", {{"train", "empty.txt"}}, dir.path()),
              HasSubstr((dir.path() / "empty.txt").string() + ": the file is empty"));
  dir.write("comments.txt", "# only\n# comments\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "comments.txt"}}, dir.path()),
              HasSubstr("the file has only comments"));
  dir.write("labels.txt", "1\n2\n");
  EXPECT_THAT(data_error("libsvm", {{"train", "labels.txt"}}, dir.path()),
              HasSubstr("so the dimension is 0"));
}

// A file of several stretches (kStretchBytes = 4 MiB each), read in parallel: the
// samples stay in file order and the line numbers count every line before them.
std::string libsvm_line(int i) {
  std::string line = std::to_string(i % 3);
  for (int j = 1; j <= 8; ++j) line += " " + std::to_string(j) + ":" + std::to_string(i + j);
  if (i % 500 == 1) line += "  # comment";
  return line + "\n";
}

std::string libsvm_lines(int n, const std::function<std::string(int)>& line) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text += line(i);
    if (i % 1000 == 9) text += "# a comment line\n\n";
  }
  return text;
}

constexpr int kStretchedLines = 250000;  // about 12 MB: three stretches and a bit

TEST_F(Libsvm, ManyStretchesInParallelKeepTheSamplesInOrder) {
  kexp::set_thread_count(2);
  const std::string text = libsvm_lines(kStretchedLines, libsvm_line);
  ASSERT_GT(text.size(), 3 * (std::size_t{4} << 20));
  dir.write("big.txt", text);
  const Data data = load_dataset("libsvm", {{"train", "big.txt"}}, dir.path());
  ASSERT_EQ(data.X.n_rows, 8U);
  ASSERT_EQ(data.X.n_cols, static_cast<arma::uword>(kStretchedLines));
  for (int i = 0; i < kStretchedLines; ++i) {
    const auto c = static_cast<arma::uword>(i);
    ASSERT_EQ(data.y[c], i % 3) << "line " << i;
    for (arma::uword j = 0; j < 8; ++j) ASSERT_EQ(data.X(j, c), i + 1.0 + j) << "line " << i;
  }
  kexp::set_thread_count(0);
}

TEST_F(Libsvm, LineNumbersAndTheFirstErrorAcrossStretches) {
  kexp::set_thread_count(2);
  // lines of data, then after every thousandth-and-ninth a comment line and a blank one
  const auto line_of = [](int i) { return i + 1 + 2 * ((i + 990) / 1000); };
  auto bad = [](int i) {
    if (i == 240000) return std::string("1 1:1 2:x\n");
    if (i == 100000) return std::string("1 3:1 2:1\n");
    return libsvm_line(i);
  };
  dir.write("bad.txt", libsvm_lines(kStretchedLines, bad));
  EXPECT_THAT(data_error("libsvm", {{"train", "bad.txt"}}, dir.path()),
              HasSubstr(at("bad.txt", std::to_string(line_of(100000)) + ":7") +
                        "index 2 is not greater than the index before it"));
  // where the largest index of the test file is first found, in a later stretch
  auto wide = [](int i) {
    if (i == 150000 || i == 220000) return std::string("1 9:1\n");
    return libsvm_line(i);
  };
  dir.write("train.txt", "1 8:1\n");
  dir.write("test.txt", libsvm_lines(kStretchedLines, wide));
  EXPECT_THAT(data_error("libsvm", {{"train", "train.txt"}, {"test", "test.txt"}}, dir.path()),
              HasSubstr(at("test.txt", std::to_string(line_of(150000)) + ":3") + "index 9"));
  kexp::set_thread_count(0);
}

TEST_F(Libsvm, LinesDroppedInSeveralStretchesLeaveTheOthersInOrder) {
  kexp::set_thread_count(2);
  auto line = [](int i) {
    if (i == 3 || i == 120000 || i == 249999) return std::string("1 1:nan 2:1\n");
    return libsvm_line(i);
  };
  dir.write("drop.txt", libsvm_lines(kStretchedLines, line));
  const Data data =
      load_dataset("libsvm", {{"train", "drop.txt"}, {"on_nonfinite", "drop"}}, dir.path());
  ASSERT_EQ(data.X.n_cols, static_cast<arma::uword>(kStretchedLines - 3));
  arma::uword c = 0;
  for (int i = 0; i < kStretchedLines; ++i) {
    if (i == 3 || i == 120000 || i == 249999) continue;
    ASSERT_EQ(data.X(0, c), i + 1.0) << "line " << i;
    ++c;
  }
  kexp::set_thread_count(0);
}

// Cut into stretches of any size, down to a line each, and parsed straight into the
// matrix or through the list of entries, a file gives the same data, or the same first
// error at the same place, as read in one stretch.
Data libsvm_in_stretches(const std::string& text, std::size_t stretch_bytes, bool direct = true) {
  kexp_datasets::LibsvmOptions o;
  o.stretch_bytes = stretch_bytes;
  o.direct = direct;
  o.policy = kexp_datasets::NonFinitePolicy::Drop;
  const auto file = kexp_datasets::text_file("s.txt", "train", "s.txt", text);
  return kexp_datasets::libsvm_data(
      file, [] { return std::nullopt; }, o);
}

std::string libsvm_error_in_stretches(const std::string& text, std::size_t stretch_bytes,
                                      bool direct = true) {
  return data_error_of([&] { return libsvm_in_stretches(text, stretch_bytes, direct); });
}

TEST(LibsvmStretches, AnyStretchSizeGivesTheDataAndTheErrorOfOneStretch) {
  kexp::set_thread_count(2);
  const std::string good = libsvm_lines(
      3000, [](int i) { return i % 700 == 1 ? std::string("1 1:nan 2:1\n") : libsvm_line(i); });
  const std::string bad = libsvm_lines(3000, [](int i) {
    if (i == 2500) return std::string("1 1:x\n");
    if (i == 1200) return std::string("1 3:1 2:1\n");
    return libsvm_line(i);
  });
  const std::size_t whole = std::numeric_limits<std::size_t>::max();
  const Data a = libsvm_in_stretches(good, whole);
  ASSERT_EQ(a.X.n_cols, 3000U - 5);
  const std::string error = libsvm_error_in_stretches(bad, whole);
  EXPECT_THAT(error, HasSubstr("index 2 is not greater than the index before it"));
  for (const bool direct : {true, false}) {
    for (const std::size_t bytes : {std::size_t{1}, std::size_t{64}, std::size_t{4096}, whole}) {
      SCOPED_TRACE("stretches of " + std::to_string(bytes) + " bytes, direct " +
                   std::to_string(direct));
      const Data a2 = libsvm_in_stretches(good, bytes, direct);
      EXPECT_TRUE(arma::approx_equal(a2.X, a.X, "absdiff", 0.0) && arma::all(a2.y == a.y));
      EXPECT_EQ(libsvm_error_in_stretches(bad, bytes, direct), error);
    }
  }
  kexp::set_thread_count(0);
}

// With a test file, a given dimension, classification and lines of a label alone, both
// ways give the same data; and a test file's index beyond the training set's dimension is
// refused alike, at the first place of its largest index.
TEST(LibsvmStretches, BothWaysAgreeWithATestFileAndEveryOption) {
  kexp::set_thread_count(2);
  const auto read = [](const std::string& train, const std::string& test, std::size_t bytes,
                       bool direct, std::size_t dimension) -> std::string {
    kexp_datasets::LibsvmOptions o;
    o.stretch_bytes = bytes;
    o.direct = direct;
    o.dimension = dimension;
    o.task = Task::Classification;
    try {
      const auto train_file = kexp_datasets::text_file("a.txt", "train", "a.txt", train);
      const auto test_file = kexp_datasets::text_file("b.txt", "test", "b.txt", test);
      const Data data = kexp_datasets::libsvm_data(
          train_file, [&] { return test_file; }, o);
      std::ostringstream out;  // every number of the data, bit for bit
      out.precision(17);
      for (const arma::mat* m : {&data.X, &data.X_test}) out << m->n_rows << ' ' << *m;
      out << data.y.t() << data.y_test.t();
      return out.str();
    } catch (const DataError& e) {
      return e.what();
    }
  };
  const auto labelled = [](int i) {
    if (i % 500 == 3) return std::string(i % 2 == 0 ? "1\n" : "-1  # a label alone\n");
    return std::string(i % 2 == 0 ? "1" : "-1") + libsvm_line(i).substr(1);
  };
  const std::string train = libsvm_lines(2000, labelled);
  const std::string test = libsvm_lines(1000, labelled);
  const std::string wide_test = libsvm_lines(1000, [&](int i) {
    if (i == 300 || i == 700) return std::string("1 2:1 11:1\n");
    return labelled(i);
  });
  const std::size_t whole = std::numeric_limits<std::size_t>::max();
  for (const std::size_t dimension : {std::size_t{0}, std::size_t{12}}) {
    const std::string data = read(train, test, whole, false, dimension);
    const std::string wide = read(train, wide_test, whole, false, dimension);
    ASSERT_THAT(data, Not(HasSubstr("a.txt"))) << data;
    if (dimension == 0) {
      EXPECT_THAT(wide, HasSubstr("b.txt:" + std::to_string(300 + 1 + 2 * ((300 + 990) / 1000)) +
                                  ":7: index 11 is beyond the dimension of the training set, 8"));
    }
    for (const std::size_t bytes : {std::size_t{1}, std::size_t{64}, whole}) {
      SCOPED_TRACE("dimension " + std::to_string(dimension) + ", stretches of " +
                   std::to_string(bytes) + " bytes");
      EXPECT_EQ(read(train, test, bytes, true, dimension), data);
      EXPECT_EQ(read(train, wide_test, bytes, true, dimension), wide);
    }
  }
  kexp::set_thread_count(0);
}

}  // namespace
}  // namespace kexp::test
