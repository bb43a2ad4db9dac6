// CSV as results.csv writes and reads it: RFC 4180 quoting of commas, quotes and line
// breaks, fields kept as they are otherwise (spaces included).
#include "util/csv.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "kexp/error.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using Fields = std::vector<std::string>;

TEST(CsvEscape, QuotesOnlyFieldsThatNeedIt) {
  EXPECT_EQ(csv_escape("gaussian"), "gaussian");
  EXPECT_EQ(csv_escape("0.001"), "0.001");
  EXPECT_EQ(csv_escape(""), "");  // an empty field is written as nothing
  // Spaces are part of a field (RFC 4180) and need no quotes.
  EXPECT_EQ(csv_escape("  padded  "), "  padded  ");
  EXPECT_EQ(csv_escape("sum(gaussian,constant)"), "\"sum(gaussian,constant)\"");
  EXPECT_EQ(csv_escape(","), "\",\"");
  // A quote is doubled inside quotes.
  EXPECT_EQ(csv_escape("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_escape("\""), "\"\"\"\"");
}

TEST(CsvEscape, WritesALineBreakAsASpaceSoThatARowIsOneLine) {
  EXPECT_EQ(csv_escape("first\nsecond"), "\"first second\"");
  EXPECT_EQ(csv_escape("first\r\nsecond"), "\"first  second\"");
  EXPECT_EQ(csv_escape("trailing\n"), "\"trailing \"");
  EXPECT_EQ(csv_escape("a,\"b\"\nc"), "\"a,\"\"b\"\" c\"");
}

TEST(CsvSplit, ReadsQuotedAndPlainFields) {
  EXPECT_EQ(csv_split("a,b,c"), (Fields{"a", "b", "c"}));
  EXPECT_EQ(csv_split("\"a,b\",c"), (Fields{"a,b", "c"}));
  EXPECT_EQ(csv_split("\"say \"\"hi\"\"\",x"), (Fields{"say \"hi\"", "x"}));
  EXPECT_EQ(csv_split("\"\"\"\""), (Fields{"\""}));
  // Spaces are kept, inside and outside quotes.
  EXPECT_EQ(csv_split("  a  ,\" b \""), (Fields{"  a  ", " b "}));
  // Empty fields: between commas, at either end, quoted, and a line with nothing.
  EXPECT_EQ(csv_split("a,,b"), (Fields{"a", "", "b"}));
  EXPECT_EQ(csv_split(",a,"), (Fields{"", "a", ""}));
  EXPECT_EQ(csv_split("\"\",x"), (Fields{"", "x"}));
  EXPECT_EQ(csv_split(""), (Fields{""}));
  EXPECT_EQ(csv_split(",,"), (Fields{"", "", ""}));
  // A carriage return left by a CRLF line end is dropped.
  EXPECT_EQ(csv_split("a,b\r"), (Fields{"a", "b"}));
}

TEST(CsvSplit, ReadsBackWhatCsvEscapeWrites) {
  const Fields fields = {"plain", "with,comma", "with \"quotes\"", "  spaced  ", "",
                         "\"",    ",",          "a,\"b\",c",       " , ",        "end"};
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_escape(fields[i]);
  EXPECT_EQ(csv_split(line), fields);
}

TEST(ReadCsv, ReadsCrLfLinesAndSkipsBlankOnes) {
  const test::TempDir dir;
  const CsvTable crlf = read_csv(dir.write("crlf.csv", "x,y\r\n1,\"a,b\"\r\n2,\r\n"));
  EXPECT_EQ(crlf.columns, (Fields{"x", "y"}));
  ASSERT_EQ(crlf.rows.size(), 2U);
  EXPECT_EQ(crlf.rows[0], (Fields{"1", "a,b"}));
  EXPECT_EQ(crlf.rows[1], (Fields{"2", ""}));
  const CsvTable blank = read_csv(dir.write("blank.csv", "x,y\n1,2\n\n3,4\n\n"));
  EXPECT_EQ(blank.rows, (std::vector<Fields>{{"1", "2"}, {"3", "4"}}));
  EXPECT_THROW(read_csv(dir.path() / "missing.csv"), Error);
}

TEST(CsvText, WritesTheHeaderAndEveryRowQuotedAsNeeded) {
  CsvTable t;
  t.columns = {"cell", "error"};
  t.rows = {{"a", "bad value, try \"1\""}, {"b", ""}};
  EXPECT_EQ(csv_text(t), "cell,error\na,\"bad value, try \"\"1\"\"\"\nb,\n");
  EXPECT_EQ(t.column("error").value_or(9), 1U);
  EXPECT_FALSE(t.column("none").has_value());
}

}  // namespace
}  // namespace kexp::core
