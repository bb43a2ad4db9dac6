// The csv dataset: hand-checked parsing of small files, the options, and every kind of bad
// input, each a DataError that names the file, line and column.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <functional>
#include <limits>
#include <string>

#include "datasets/csv_reader.hpp"
#include "plugins/datasets/loading.hpp"
#include "support/test_paths.hpp"

namespace kexp::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class Csv : public ::testing::Test {
 protected:
  TempDir dir;
  std::string at(const std::string& file, const std::string& where) const {
    return (dir.path() / file).string() + ":" + where + ": ";
  }
};

TEST_F(Csv, ReadsATinyFileWithAHeaderByHand) {
  dir.write("train.csv", "a,b,y\n1,2.5,3\n-4,5e-1,+6\n");
  const Data data = load_dataset("csv", {{"train", "train.csv"}}, dir.path());
  ASSERT_EQ(data.X.n_rows, 2U);
  ASSERT_EQ(data.X.n_cols, 2U);
  EXPECT_EQ(data.X(0, 0), 1.0);
  EXPECT_EQ(data.X(1, 0), 2.5);
  EXPECT_EQ(data.X(0, 1), -4.0);
  EXPECT_EQ(data.X(1, 1), 0.5);
  EXPECT_EQ(data.y[0], 3.0);
  EXPECT_EQ(data.y[1], 6.0);
  EXPECT_FALSE(data.has_test);
  EXPECT_EQ(data.task, Task::Regression);
  EXPECT_EQ(data.feature_names, (std::vector<std::string>{"a", "b"}));
}

TEST_F(Csv, TargetByNameOrIndexAndNoHeader) {
  dir.write("h.csv", "y,a,b\n1,2,3\n4,5,6\n");
  Data data = load_dataset("csv", {{"train", "h.csv"}, {"target", "y"}}, dir.path());
  EXPECT_EQ(data.y[0], 1.0);
  EXPECT_EQ(data.y[1], 4.0);
  EXPECT_EQ(data.X(0, 0), 2.0);
  EXPECT_EQ(data.X(1, 1), 6.0);
  EXPECT_EQ(data.feature_names, (std::vector<std::string>{"a", "b"}));

  dir.write("n.csv", "1,2,3\n4,5,6\n");
  data = load_dataset("csv", {{"train", "n.csv"}, {"target", "1"}}, dir.path());
  EXPECT_EQ(data.y[0], 2.0);
  EXPECT_EQ(data.X(0, 0), 1.0);
  EXPECT_EQ(data.X(1, 0), 3.0);
  EXPECT_TRUE(data.feature_names.empty());
  data = load_dataset("csv", {{"train", "n.csv"}, {"target", "-3"}}, dir.path());
  EXPECT_EQ(data.y[1], 4.0);
  data = load_dataset("csv", {{"train", "n.csv"}}, dir.path());
  EXPECT_EQ(data.y[1], 6.0);
  // header: false keeps a first line of text as data, which then is not a number
  EXPECT_THAT(data_error("csv", {{"train", "h.csv"}, {"header", "false"}}, dir.path()),
              HasSubstr(at("h.csv", "1:1") + "field 1 'y' is not a number"));
  // header: true takes a numeric first line as the header
  data = load_dataset("csv", {{"train", "n.csv"}, {"header", "true"}}, dir.path());
  EXPECT_EQ(data.X.n_cols, 1U);
  EXPECT_EQ(data.feature_names, (std::vector<std::string>{"1", "2"}));
}

TEST_F(Csv, DelimitersQuotesBlankLinesAndCrlf) {
  dir.write("s.csv", "\"x;1\";\"y\"\"\"\r\n\r\n 1.5 ; 2\r\n\"3\";4\r\n");
  Data data = load_dataset("csv", {{"train", "s.csv"}, {"delimiter", ";"}}, dir.path());
  EXPECT_EQ(data.feature_names, (std::vector<std::string>{"x;1"}));
  ASSERT_EQ(data.X.n_cols, 2U);
  EXPECT_EQ(data.X(0, 0), 1.5);
  EXPECT_EQ(data.X(0, 1), 3.0);
  EXPECT_EQ(data.y[1], 4.0);

  dir.write("w.txt", "  1  2\t3\n4 5 6  \n");
  data = load_dataset("csv", {{"train", "w.txt"}, {"delimiter", "whitespace"}}, dir.path());
  EXPECT_EQ(data.X(1, 0), 2.0);
  EXPECT_EQ(data.y[1], 6.0);

  dir.write("t.tsv", "a\tb\n1\t2\n");
  data = load_dataset("csv", {{"train", "t.tsv"}, {"delimiter", "tab"}}, dir.path());
  EXPECT_EQ(data.y[0], 2.0);

  // a blank line does not shift the line numbers in messages
  dir.write("b.csv", "a,y\n\n1,2\n\nx,3\n");
  EXPECT_THAT(data_error("csv", {{"train", "b.csv"}}, dir.path()),
              HasSubstr(at("b.csv", "5:1") + "field 1 'x' is not a number"));
}

TEST_F(Csv, TestFileIsTheTestSetAsItIsInRowOrder) {
  dir.write("data/train.csv", "a,y\n1,10\n2,20\n3,30\n");
  dir.write("data/test.csv", "a,y\n9,90\n7,70\n8,80\n");
  const Data data =
      load_dataset("csv", {{"train", "data/train.csv"}, {"test", "data/test.csv"}}, dir.path());
  ASSERT_TRUE(data.has_test);
  EXPECT_EQ(data.X.n_cols, 3U);
  ASSERT_EQ(data.X_test.n_cols, 3U);
  EXPECT_EQ(data.X_test(0, 0), 9.0);
  EXPECT_EQ(data.X_test(0, 1), 7.0);
  EXPECT_EQ(data.X_test(0, 2), 8.0);
  EXPECT_EQ(data.y_test[2], 80.0);
}

TEST_F(Csv, ClassificationMapsTwoLabelsToPlusMinusOne) {
  dir.write("c.csv", "x,label\n0.5,1\n1.5,0\n2.5,1\n");
  dir.write("ct.csv", "x,label\n3,0\n4,1\n");
  const Data data = load_dataset(
      "csv", {{"train", "c.csv"}, {"test", "ct.csv"}, {"task", "classification"}}, dir.path());
  EXPECT_EQ(data.task, Task::Classification);
  EXPECT_EQ(data.y[0], 1.0);
  EXPECT_EQ(data.y[1], -1.0);
  EXPECT_EQ(data.y_test[0], -1.0);
  EXPECT_EQ(data.y_test[1], 1.0);

  dir.write("c1.csv", "x,label\n1,2\n2,2\n");
  EXPECT_THAT(data_error("csv", {{"train", "c1.csv"}, {"task", "classification"}}, dir.path()),
              HasSubstr("two distinct labels at least, found 1 (2)"));
  dir.write("cbad.csv", "x,label\n3,0\n4,5\n");
  EXPECT_THAT(
      data_error("csv", {{"train", "c.csv"}, {"test", "cbad.csv"}, {"task", "classification"}},
                 dir.path()),
      HasSubstr(at("cbad.csv", "3:3") + "label 5 is not one of the two labels"));
}

TEST_F(Csv, ClassificationKeepsMoreThanTwoLabelsAsClasses) {
  dir.write("c3.csv", "x,label\n1,0\n2,2\n3,1\n");
  dir.write("c3t.csv", "x,label\n4,2\n5,0\n");
  const Data data = load_dataset(
      "csv", {{"train", "c3.csv"}, {"test", "c3t.csv"}, {"task", "classification"}}, dir.path());
  EXPECT_EQ(data.task, Task::Multiclass);
  EXPECT_EQ(data.y[0], 0.0);
  EXPECT_EQ(data.y[1], 2.0);
  EXPECT_EQ(data.y[2], 1.0);
  EXPECT_EQ(data.y_test[0], 2.0);
  dir.write("c3bad.csv", "x,label\n4,2\n5,7\n");
  EXPECT_THAT(
      data_error("csv", {{"train", "c3.csv"}, {"test", "c3bad.csv"}, {"task", "classification"}},
                 dir.path()),
      HasSubstr(at("c3bad.csv", "3:3") + "label 7 is not one of the 3 labels of"));
}

TEST_F(Csv, MissingFile) {
  EXPECT_THAT(data_error("csv", {{"train", "nowhere.csv"}}, dir.path()),
              HasSubstr((dir.path() / "nowhere.csv").string() +
                        ": the file does not exist (train: nowhere.csv; a relative path is "
                        "taken from the config file's folder)"));
  dir.write("a.csv", "a,y\n1,2\n");
  EXPECT_THAT(data_error("csv", {{"train", "a.csv"}, {"test", "b.csv"}}, dir.path()),
              HasSubstr("b.csv: the file does not exist (test: b.csv"));
}

TEST_F(Csv, EmptyFileAndHeaderOnly) {
  dir.write("empty.csv", "");
  EXPECT_THAT(data_error("csv", {{"train", "empty.csv"}}, dir.path()),
              HasSubstr((dir.path() / "empty.csv").string() +
                        ": the file is empty; it needs at least one row of data"));
  dir.write("blank.csv", "\n  \n");
  EXPECT_THAT(data_error("csv", {{"train", "blank.csv"}}, dir.path()),
              HasSubstr("the file is empty"));
  dir.write("header.csv", "a,b,y\n");
  EXPECT_THAT(data_error("csv", {{"train", "header.csv"}}, dir.path()),
              HasSubstr(at("header.csv", "1") + "the file has a header but no rows of data"));
}

TEST_F(Csv, RaggedRows) {
  dir.write("r.csv", "a,b,y\n1,2,3\n4,5\n");
  EXPECT_THAT(data_error("csv", {{"train", "r.csv"}}, dir.path()),
              HasSubstr(at("r.csv", "3") +
                        "this row has 2 fields, line 1 has 3; every row needs the same number"));
  dir.write("one.csv", "1;2\n3;4\n");
  EXPECT_THAT(data_error("csv", {{"train", "one.csv"}}, dir.path()),
              HasSubstr("is the delimiter right? It is ','"));
}

TEST_F(Csv, NonNumericField) {
  dir.write("t.csv", "a,b,y\n1,2,3\n4, abc ,6\n");
  EXPECT_THAT(data_error("csv", {{"train", "t.csv"}}, dir.path()),
              HasSubstr(at("t.csv", "3:4") + "field 2 'abc' is not a number"));
  // a decimal comma is not a number in the C locale
  dir.write("comma.csv", "a;y\n1,5;2\n");
  EXPECT_THAT(data_error("csv", {{"train", "comma.csv"}, {"delimiter", ";"}}, dir.path()),
              HasSubstr(at("comma.csv", "2:1") + "field 1 '1,5' is not a number"));
  // a first line that mixes numbers and text is data, and the message suggests a header
  dir.write("mixed.csv", "1,b,y\n1,2,3\n");
  EXPECT_THAT(data_error("csv", {{"train", "mixed.csv"}}, dir.path()),
              HasSubstr(at("mixed.csv", "1:3") +
                        "field 2 'b' is not a number (if line 1 is a header, set header: true)"));
  dir.write("quote.csv", "a,y\n\"1,2\n");
  EXPECT_THAT(data_error("csv", {{"train", "quote.csv"}}, dir.path()),
              HasSubstr(at("quote.csv", "2:1") + "a quoted field is not closed"));
}

TEST_F(Csv, NanInfAndMissingAreErrorsByDefault) {
  dir.write("nan.csv", "a,y\n1,2\nnan,3\n");
  EXPECT_THAT(data_error("csv", {{"train", "nan.csv"}}, dir.path()),
              AllOf(HasSubstr(at("nan.csv", "3:1") + "field 1 is nan (not finite)"),
                    HasSubstr("set on_nonfinite: drop")));
  dir.write("inf.csv", "a,y\n1,2\n3,-Inf\n");
  EXPECT_THAT(data_error("csv", {{"train", "inf.csv"}}, dir.path()),
              HasSubstr(at("inf.csv", "3:3") + "field 2 is -Inf (not finite)"));
  dir.write("na.csv", "a,b,y\n1,,2\n3,NA,4\n");
  EXPECT_THAT(data_error("csv", {{"train", "na.csv"}}, dir.path()),
              HasSubstr(at("na.csv", "2:3") + "field 2 is empty (a missing value)"));
}

TEST_F(Csv, NanInfAndMissingRowsAreDroppedWithACountWhenAsked) {
  dir.write("d.csv", "a,b,y\n1,2,3\nNaN,5,6\n7,8,9\n1,inf,2\n4,,5\n6,7,8\n");
  ::testing::internal::CaptureStderr();
  const Data data = load_dataset("csv", {{"train", "d.csv"}, {"on_nonfinite", "drop"}}, dir.path());
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(data.X.n_cols, 3U);
  EXPECT_EQ(data.X(0, 0), 1.0);
  EXPECT_EQ(data.X(0, 1), 7.0);
  EXPECT_EQ(data.X(0, 2), 6.0);
  EXPECT_EQ(data.y[2], 8.0);
  EXPECT_THAT(err, HasSubstr("kexp: dataset csv: dropped 3 of 6 rows of " +
                             (dir.path() / "d.csv").string() +
                             " with a NaN, Inf or missing value (lines 3, 5, 6; "
                             "on_nonfinite: drop)"));
  dir.write("all.csv", "a,y\nnan,1\n");
  EXPECT_THAT(data_error("csv", {{"train", "all.csv"}, {"on_nonfinite", "drop"}}, dir.path()),
              HasSubstr("none is left"));
}

TEST_F(Csv, TargetColumnThatDoesNotExist) {
  dir.write("h.csv", "a,b,y\n1,2,3\n");
  EXPECT_THAT(data_error("csv", {{"train", "h.csv"}, {"target", "price"}}, dir.path()),
              HasSubstr(at("h.csv", "1") +
                        "target column 'price' does not exist; the columns are 'a', 'b', 'y'"));
  EXPECT_THAT(data_error("csv", {{"train", "h.csv"}, {"target", "3"}}, dir.path()),
              HasSubstr("target column 3 does not exist: the file has 3 columns, indexed 0 to 2"));
  EXPECT_THAT(data_error("csv", {{"train", "h.csv"}, {"target", "-4"}}, dir.path()),
              HasSubstr("target column -4 does not exist"));
  dir.write("n.csv", "1,2,3\n");
  EXPECT_THAT(data_error("csv", {{"train", "n.csv"}, {"target", "y"}}, dir.path()),
              HasSubstr("target column 'y' does not exist; the file has no header, so name the "
                        "column by its index (0 to 2, or -1 for the last)"));
}

TEST_F(Csv, TestFileOfAnotherWidthOrOtherColumns) {
  dir.write("train.csv", "a,b,y\n1,2,3\n");
  dir.write("test.csv", "a,y\n1,3\n");
  EXPECT_THAT(data_error("csv", {{"train", "train.csv"}, {"test", "test.csv"}}, dir.path()),
              HasSubstr(at("test.csv", "1") + "the test file has 2 columns, the training file " +
                        (dir.path() / "train.csv").string() + " has 3"));
  dir.write("other.csv", "a,c,y\n1,2,3\n");
  EXPECT_THAT(data_error("csv", {{"train", "train.csv"}, {"test", "other.csv"}}, dir.path()),
              HasSubstr(at("other.csv", "1:3") + "column 2 is named 'c', in the training file"));
}

TEST_F(Csv, OnlyRegularFilesAreRead) {
  // a device would be read until the memory runs out, a named pipe would block
  for (const std::string device : {"/dev/zero", "/dev/urandom"}) {
    EXPECT_EQ(data_error("csv", {{"train", device}}, dir.path()),
              device + ": is a character device, not a regular file (train: " + device +
                  "); data is read only from regular files");
  }
  ASSERT_EQ(::mkfifo((dir.path() / "pipe.csv").c_str(), 0600), 0);
  EXPECT_EQ(data_error("csv", {{"train", "pipe.csv"}}, dir.path()),
            (dir.path() / "pipe.csv").string() +
                ": is a named pipe (FIFO), not a regular file (train: pipe.csv); data is read "
                "only from regular files");
  EXPECT_THAT(data_error("csv", {{"train", "."}}, dir.path()),
              HasSubstr(": is a folder, not a file (train: .)"));
  // a symbolic link to a regular file is read
  dir.write("real.csv", "a,y\n1,2\n");
  std::filesystem::create_symlink(dir.path() / "real.csv", dir.path() / "link.csv");
  EXPECT_EQ(load_dataset("csv", {{"train", "link.csv"}}, dir.path()).y[0], 2.0);
}

TEST_F(Csv, AFileLargerThanMaxFileBytesIsRefused) {
  dir.write("big.csv", "a,y\n1,2\n3,4\n");  // 12 bytes
  EXPECT_EQ(data_error("csv", {{"train", "big.csv"}, {"max_file_bytes", "11"}}, dir.path()),
            (dir.path() / "big.csv").string() +
                ": the file has 12 bytes, more than max_file_bytes, 11 bytes; set "
                "max_file_bytes in the dataset block to read a larger file (train: big.csv)");
  EXPECT_EQ(
      load_dataset("csv", {{"train", "big.csv"}, {"max_file_bytes", "12"}}, dir.path()).X.n_cols,
      2U);
  EXPECT_THAT(config_error("csv", {{"train", "big.csv"}, {"max_file_bytes", "0"}}),
              HasSubstr("test.max_file_bytes must be"));
  // a file whose size stat does not tell (a file of /proc says 0 bytes) is held to the
  // limit as it is read
  EXPECT_EQ(data_error("csv", {{"train", "/proc/self/status"}, {"max_file_bytes", "100"}}),
            "/proc/self/status: the file has more than 100 bytes, max_file_bytes; set "
            "max_file_bytes in the dataset block to read a larger file (train: "
            "/proc/self/status)");
}

TEST_F(Csv, ARepeatedColumnNameIsAnError) {
  dir.write("d.csv", "x,y,y\n1,2,3\n");
  EXPECT_EQ(data_error("csv", {{"train", "d.csv"}, {"target", "y"}}, dir.path()),
            at("d.csv", "1:5") +
                "column 3 is named 'y' like column 2; every column of the header needs its own "
                "name");
  EXPECT_THAT(data_error("csv", {{"train", "d.csv"}}, dir.path()),
              HasSubstr(at("d.csv", "1:5") + "column 3 is named 'y' like column 2"));
  dir.write("t.csv", "a,b,a,y\n1,2,3,4\n");
  EXPECT_THAT(data_error("csv", {{"train", "t.csv"}, {"target", "y"}}, dir.path()),
              HasSubstr(at("t.csv", "1:5") + "column 3 is named 'a' like column 1"));
  // in the test file as well
  dir.write("train.csv", "a,y\n1,2\n");
  dir.write("test.csv", "y,y\n1,2\n");
  EXPECT_THAT(data_error("csv", {{"train", "train.csv"}, {"test", "test.csv"}}, dir.path()),
              HasSubstr(at("test.csv", "1:3") + "column 2 is named 'y' like column 1"));
}

TEST_F(Csv, MoreColumnsThanMaxFeaturesIsAnError) {
  dir.write("w.csv", "1,2,3,4\n5,6,7,8\n");
  EXPECT_EQ(data_error("csv", {{"train", "w.csv"}, {"max_features", "2"}}, dir.path()),
            at("w.csv", "1:7") +
                "this line has more than 3 fields, more than max_features, 2, allows (features "
                "and a target or label); set max_features in the dataset block if the data has "
                "more features");
  EXPECT_EQ(load_dataset("csv", {{"train", "w.csv"}, {"max_features", "3"}}, dir.path()).X.n_rows,
            3U);
}

TEST_F(Csv, ParametersAreCheckedAgainstTheSchema) {
  EXPECT_THAT(config_error("csv", {}), HasSubstr("test.train is required by csv"));
  EXPECT_THAT(config_error("csv", {{"train", "a.csv"}, {"delimiter", "|"}}),
              HasSubstr("test.delimiter must be one of"));
  EXPECT_THAT(config_error("csv", {{"train", "a.csv"}, {"on_nonfinite", "skip"}}),
              HasSubstr("test.on_nonfinite must be one of error, drop"));
  EXPECT_THAT(config_error("csv", {{"train", "a.csv"}, {"test_fraction", "1"}}),
              HasSubstr("test.test_fraction must be in (0, 1), got 1"));
}

TEST(CsvShippedData, DiabetesHas442PatientsAndTenVariables) {
  const std::filesystem::path configs =
      std::filesystem::path(KEXP_TEST_SOURCE_DIR).parent_path() / "configs";
  const Data data = load_dataset("csv", {{"train", "data/diabetes.csv"}, {"target", "y"}}, configs);
  ASSERT_EQ(data.X.n_rows, 10U);
  ASSERT_EQ(data.X.n_cols, 442U);
  EXPECT_EQ(data.feature_names, (std::vector<std::string>{"age", "sex", "bmi", "bp", "s1", "s2",
                                                          "s3", "s4", "s5", "s6"}));
  // the first patient: 59,2,32.1,101.0,157,93.2,38.0,4.0,4.8598,87 → 151
  EXPECT_EQ(data.X(0, 0), 59.0);
  EXPECT_EQ(data.X(2, 0), 32.1);
  EXPECT_EQ(data.X(8, 0), 4.8598);
  EXPECT_EQ(data.y[0], 151.0);
  // the target of scikit-learn's load_diabetes: 25 to 346, mean 152.13
  EXPECT_EQ(data.y.min(), 25.0);
  EXPECT_EQ(data.y.max(), 346.0);
  EXPECT_NEAR(arma::mean(data.y), 152.133, 1e-3);
}

// A file of many rows, blank lines and quoted fields now and then: every value lands in its
// own column, in file order.
std::string many_rows(int rows, const std::function<std::string(int)>& row) {
  std::string text = "a,b,y\n";
  for (int i = 0; i < rows; ++i) {
    text += row(i);
    if (i % 1000 == 7) text += "\n";  // a blank line now and then
  }
  return text;
}

std::string plain_row(int i) {
  std::string row = std::to_string(i) + "," + std::to_string(i) + ".5,";
  row += i % 997 == 3 ? "\"" + std::to_string(-i) + "\"\n" : std::to_string(-i) + "\n";
  return row;
}

TEST_F(Csv, ManyRowsKeepTheirOrder) {
  kexp::set_thread_count(2);
  constexpr int kRows = 50000;
  dir.write("big.csv", many_rows(kRows, plain_row));
  const Data data = load_dataset("csv", {{"train", "big.csv"}}, dir.path());
  ASSERT_EQ(data.X.n_cols, static_cast<arma::uword>(kRows));
  for (int i = 0; i < kRows; ++i) {
    ASSERT_EQ(data.X(0, static_cast<arma::uword>(i)), i) << "row " << i;
    ASSERT_EQ(data.X(1, static_cast<arma::uword>(i)), i + 0.5) << "row " << i;
    ASSERT_EQ(data.y[static_cast<arma::uword>(i)], -i) << "row " << i;
  }
  kexp::set_thread_count(0);
}

TEST_F(Csv, TheFirstErrorOfTheFileIsReportedAtItsLine) {
  kexp::set_thread_count(2);
  // errors in rows 40000 and 20000; the file's first is reported, at its line: the header,
  // the row's index and the blank lines before it
  auto row = [](int i) {
    if (i == 20000) return std::string("1,x,2\n");
    if (i == 40000) return std::string("1,,2\n");
    return plain_row(i);
  };
  dir.write("bad.csv", many_rows(50000, row));
  const int line = 1 + 20000 + 1 + 20000 / 1000;  // header, rows 0..20000, blank lines
  EXPECT_THAT(
      data_error("csv", {{"train", "bad.csv"}}, dir.path()),
      HasSubstr(at("bad.csv", std::to_string(line) + ":3") + "field 2 'x' is not a number"));
  kexp::set_thread_count(0);
}

TEST_F(Csv, RowsDroppedHereAndThereLeaveTheOthersInOrder) {
  kexp::set_thread_count(2);
  auto row = [](int i) {
    if (i == 5 || i == 17000 || i == 49999) return std::to_string(i) + ",NA,1\n";
    if (i == 33000) return std::to_string(i) + ",1,nan\n";
    return plain_row(i);
  };
  dir.write("drop.csv", many_rows(50000, row));
  const Data data =
      load_dataset("csv", {{"train", "drop.csv"}, {"on_nonfinite", "drop"}}, dir.path());
  ASSERT_EQ(data.X.n_cols, 49996U);
  arma::uword c = 0;
  for (int i = 0; i < 50000; ++i) {
    if (i == 5 || i == 17000 || i == 33000 || i == 49999) continue;
    ASSERT_EQ(data.X(0, c), i) << "row " << i;
    ASSERT_EQ(data.y[c], -i) << "row " << i;
    ++c;
  }
  kexp::set_thread_count(0);
}

// Both passes read a file in stretches of its lines on every thread. Cut into stretches of
// any size, down to a line each, a file gives the same data, or the same first error at
// the same place, as read in one stretch.
Data csv_in_stretches(const std::string& text, std::size_t stretch_bytes,
                      kexp_datasets::CsvOptions o = {}) {
  o.stretch_bytes = stretch_bytes;
  const auto file = kexp_datasets::text_file("s.csv", "train", "s.csv", text);
  return kexp_datasets::csv_data(
      file, [] { return std::nullopt; }, o);
}

std::string csv_error_in_stretches(const std::string& text, std::size_t stretch_bytes,
                                   const kexp_datasets::CsvOptions& o = {}) {
  return data_error_of([&] { return csv_in_stretches(text, stretch_bytes, o); });
}

TEST(CsvStretches, AnyStretchSizeGivesTheDataOfOneStretch) {
  kexp::set_thread_count(2);
  const std::string with_header = many_rows(3000, plain_row);
  const std::string without_header = with_header.substr(with_header.find('\n') + 1);
  kexp_datasets::CsvOptions drop;
  drop.policy = kexp_datasets::NonFinitePolicy::Drop;
  const std::string with_gaps = many_rows(
      3000, [](int i) { return i % 700 == 1 ? std::to_string(i) + ",NA,1\n" : plain_row(i); });
  const std::size_t whole = std::numeric_limits<std::size_t>::max();
  const Data a = csv_in_stretches(with_header, whole);
  const Data b = csv_in_stretches(without_header, whole);
  const Data c = csv_in_stretches(with_gaps, whole, drop);
  ASSERT_EQ(a.X.n_cols, 3000U);
  ASSERT_EQ(b.X.n_cols, 3000U);
  ASSERT_EQ(c.X.n_cols, 3000U - 5);
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{64}, std::size_t{4096}}) {
    SCOPED_TRACE("stretches of " + std::to_string(bytes) + " bytes");
    const Data a2 = csv_in_stretches(with_header, bytes);
    const Data b2 = csv_in_stretches(without_header, bytes);
    const Data c2 = csv_in_stretches(with_gaps, bytes, drop);
    EXPECT_TRUE(arma::approx_equal(a2.X, a.X, "absdiff", 0.0) && arma::all(a2.y == a.y));
    EXPECT_TRUE(arma::approx_equal(b2.X, b.X, "absdiff", 0.0) && arma::all(b2.y == b.y));
    EXPECT_TRUE(arma::approx_equal(c2.X, c.X, "absdiff", 0.0) && arma::all(c2.y == c.y));
  }
  kexp::set_thread_count(0);
}

TEST(CsvStretches, AnyStretchSizeGivesTheFirstErrorAtItsPlace) {
  kexp::set_thread_count(2);
  // a row of the wrong width after a field that is not a number, and the other way round:
  // the first in the file is reported
  const std::string wide = many_rows(3000, [](int i) {
    if (i == 2500) return std::string("1,x,2\n");
    if (i == 1200) return std::string("1,2,3,4\n");
    return plain_row(i);
  });
  const std::string text = many_rows(3000, [](int i) {
    if (i == 2500) return std::string("1,2,3,4\n");
    if (i == 1200) return std::string("1,x,2\n");
    return plain_row(i);
  });
  const std::size_t whole = std::numeric_limits<std::size_t>::max();
  const std::string wide_error = csv_error_in_stretches(wide, whole);
  const std::string text_error = csv_error_in_stretches(text, whole);
  // the header, rows 0 to i and the blank lines after rows 7, 1007, …
  const std::string line = std::to_string(1 + 1200 + 1 + (1200 + 992) / 1000);
  EXPECT_THAT(wide_error, HasSubstr("s.csv:" + line + ": this row has 4"));
  EXPECT_THAT(text_error, HasSubstr("s.csv:" + line + ":3: field 2 'x' is not a number"));
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{64}, std::size_t{4096}}) {
    SCOPED_TRACE("stretches of " + std::to_string(bytes) + " bytes");
    EXPECT_EQ(csv_error_in_stretches(wide, bytes), wide_error);
    EXPECT_EQ(csv_error_in_stretches(text, bytes), text_error);
  }
  kexp::set_thread_count(0);
}

// A row of plain numbers is read straight from its line; any other is split into fields.
// Both readings give the same values, and the same places in messages.
TEST_F(Csv, PlainRowsAndQuotedRowsGiveTheSameValuesAndPlaces) {
  dir.write("p.csv", "a,b,y\n+1.5, 2 ,\t-3e-1\n\"+1.5\",\"2\",\"-3e-1\"\n.5,-0,1\n");
  const Data data = load_dataset("csv", {{"train", "p.csv"}}, dir.path());
  ASSERT_EQ(data.X.n_cols, 3U);
  EXPECT_EQ(data.X(0, 0), 1.5);
  EXPECT_EQ(data.X(1, 0), 2.0);
  EXPECT_EQ(data.y[0], -0.3);
  EXPECT_EQ(data.X(0, 1), data.X(0, 0));
  EXPECT_EQ(data.X(1, 1), data.X(1, 0));
  EXPECT_EQ(data.y[1], data.y[0]);
  EXPECT_EQ(data.X(0, 2), 0.5);
  // not plain: each is read field by field and refused at its place
  dir.write("q.csv", "a,b,y\n1,2,3\n1,2 3,4\n");
  EXPECT_THAT(data_error("csv", {{"train", "q.csv"}}, dir.path()),
              HasSubstr(at("q.csv", "3:3") + "field 2 '2 3' is not a number"));
  dir.write("r.csv", "a,b,y\n1,2,3\n1,+-2,4\n");
  EXPECT_THAT(data_error("csv", {{"train", "r.csv"}}, dir.path()),
              HasSubstr(at("r.csv", "3:3") + "field 2 '+-2' is not a number"));
  // the label's place, from a plain row, in a classification error of the test file
  dir.write("c.csv", "a,y\n1,0\n2,1\n");
  dir.write("ct.csv", "a,y\n1,0\n2,  7\n");
  EXPECT_THAT(
      data_error("csv", {{"train", "c.csv"}, {"test", "ct.csv"}, {"task", "classification"}},
                 dir.path()),
      HasSubstr(at("ct.csv", "3:5") + "label 7 is not one of the two labels"));
}

}  // namespace
}  // namespace kexp::test
