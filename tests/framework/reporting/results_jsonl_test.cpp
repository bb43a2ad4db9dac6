// results.jsonl as the typed source of a folder's rows: each JSON value's CSV text is the
// text CsvWriter writes for the same value, and a results.csv that says otherwise is found
// at its row and column.
#include "reporting/results_jsonl.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kexp/error.hpp"
#include "reporting/writer.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

TEST(ResultsJsonl, EachFieldReadsAsCsvWriterWritesTheSameValue) {
  // the values as the writers take them, written by both, then read back from the JSONL
  Row row;
  row.set("cell", std::string("00ab"));
  row.set("repeat", std::int64_t{3});
  row.set("test_rmse", 0.1);
  row.set("tiny", 1e-300);
  row.set("whole", 2.0);
  row.set("bad", std::numeric_limits<double>::quiet_NaN());
  row.set("converged", true);
  row.set("none", std::monostate{});
  const std::vector<std::string> columns{"cell",  "repeat", "test_rmse", "tiny",
                                         "whole", "bad",    "converged", "none"};
  const test::TempDir dir;
  for (const char* name : {"r.csv", "r.jsonl"}) {
    const auto file = dir.path() / name;
    std::unique_ptr<ResultWriter> w;
    if (std::string(name) == "r.csv") {
      w = std::make_unique<CsvWriter>(file);
    } else {
      w = std::make_unique<JsonlWriter>(file);
    }
    w->begin(columns, false);
    w->write(row);
    w->end();
  }
  const CsvTable csv = read_csv(dir.path() / "r.csv");
  const std::vector<json> rows = read_jsonl_rows(dir.path() / "r.jsonl");
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(csv_table_of(columns, rows).rows, csv.rows);
  EXPECT_EQ(csv_jsonl_mismatch(csv, rows), std::nullopt);
  EXPECT_EQ(csv_field(rows[0], "test_rmse"), "0.1");
  EXPECT_EQ(csv_field(rows[0], "whole"), "2");
  EXPECT_EQ(csv_field(rows[0], "bad"), "nan");
  EXPECT_EQ(csv_field(rows[0], "converged"), "true");
  EXPECT_EQ(csv_field(rows[0], "none"), "");
}

TEST(ResultsJsonl, AMismatchNamesItsRowAndColumnAndBothValues) {
  CsvTable csv;
  csv.columns = {"cell", "test_rmse"};
  csv.rows = {{"a", "0.5"}, {"b", "0.25"}};
  std::vector<json> rows{json{{"cell", "a"}, {"test_rmse", 0.5}},
                         json{{"cell", "b"}, {"test_rmse", 0.75}}};
  EXPECT_EQ(csv_jsonl_mismatch(csv, rows),
            "row 2, column test_rmse: results.csv has '0.25', results.jsonl '0.75'");
  rows.pop_back();
  EXPECT_EQ(csv_jsonl_mismatch(csv, rows), "results.csv has 2 rows and results.jsonl 1");
}

TEST(ResultsJsonl, ALineThatIsNoObjectIsAnErrorNamingItsLine) {
  const test::TempDir dir;
  dir.write("r.jsonl", "{\"cell\":\"a\"}\n\n[1]\n");
  try {
    (void)read_jsonl_rows(dir.path() / "r.jsonl");
    FAIL() << "read a line that is not an object";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("r.jsonl:3: not a JSON object"));
  }
}

}  // namespace
}  // namespace kexp::core
