// The result writers: a table written by CsvWriter and read back by read_csv, appended to
// on resume.
#include "reporting/writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "kexp/error.hpp"
#include "support/plugins.hpp"
#include "util/csv.hpp"

namespace kexp::core {
namespace {

using Fields = std::vector<std::string>;

std::string file_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CsvWriter, TableRoundTripsThroughReadCsv) {
  const test::TempDir dir;
  const auto file = dir.path() / "results.csv";
  const Fields columns = {"cell", "kernel", "error", "kernel.sum[0].sigma",
                          "note", "count",  "ok",    "a,b"};
  {
    CsvWriter writer(file);
    writer.begin(columns, false);
    Row first;
    first.set("cell", std::string("0123456789abcdef"));
    first.set("kernel", std::string("sum(gaussian,constant)"));
    first.set("error", std::string("K + λI is not positive definite (leading minor 2 of 2, "
                                   "λ = 0.5): use a larger \"lambda\"\nor a valid kernel"));
    first.set("kernel.sum[0].sigma", 0.1);
    first.set("note", std::string("  leading and trailing spaces  "));
    first.set("count", std::int64_t{-42});
    first.set("ok", true);
    first.set("a,b", std::string(","));
    writer.write(first);
    Row second;  // columns not set are empty; an empty string and none read the same
    second.set("cell", std::string("fedcba9876543210"));
    second.set("note", std::string(""));
    second.set("kernel.sum[0].sigma", 1e-300);
    second.set("error", std::monostate{});
    writer.write(second);
    writer.end();
  }
  // The header quotes the column that holds a comma; every row is one line.
  const std::string text = file_text(file);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "cell,kernel,error,kernel.sum[0].sigma,note,count,ok,\"a,b\"");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);

  const CsvTable table = read_csv(file);
  EXPECT_EQ(table.columns, columns);
  ASSERT_EQ(table.rows.size(), 2U);
  EXPECT_EQ(table.rows[0],
            (Fields{"0123456789abcdef", "sum(gaussian,constant)",
                    "K + λI is not positive definite (leading minor 2 of 2, λ = 0.5): use a "
                    "larger \"lambda\" or a valid kernel",  // the line break became a space
                    "0.1", "  leading and trailing spaces  ", "-42", "true", ","}));
  EXPECT_EQ(table.rows[1], (Fields{"fedcba9876543210", "", "", "1e-300", "", "", "", ""}));
  // Numbers come back as the same doubles.
  EXPECT_EQ(std::stod(table.rows[0][3]), 0.1);
  EXPECT_EQ(std::stod(table.rows[1][3]), 1e-300);
  EXPECT_EQ(table.column("a,b"), 7U);
  EXPECT_EQ(table.column("kernel.sum[0].sigma"), 3U);
  EXPECT_FALSE(table.column("missing").has_value());
}

TEST(CsvWriter, AppendContinuesAFileWithoutASecondHeader) {
  const test::TempDir dir;
  const auto file = dir.path() / "results.csv";
  const Fields columns = {"cell", "status"};
  for (const bool append : {false, true}) {
    CsvWriter writer(file);
    writer.begin(columns, append);
    Row row;
    row.set("cell", std::string(append ? "b" : "a"));
    row.set("status", std::string("ok"));
    writer.write(row);
    writer.end();
  }
  EXPECT_EQ(file_text(file), "cell,status\na,ok\nb,ok\n");
}

}  // namespace
}  // namespace kexp::core
