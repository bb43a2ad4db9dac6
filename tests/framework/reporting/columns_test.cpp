// The table of results.csv's fixed columns against itself and against docs/design.md's
// section "results.csv": its list of the fixed columns in order, and its table of what
// each column means.
#include "reporting/columns.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "reporting/results_row.hpp"
#include "support/test_paths.hpp"

namespace kexp::core {
namespace {

/// docs/design.md's section "results.csv", up to the next heading.
std::string results_csv_section() {
  const auto file =
      std::filesystem::path(KEXP_TEST_SOURCE_DIR).parent_path() / "docs" / "design.md";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::size_t begin = doc.find("\n### results.csv\n");
  if (begin == std::string::npos) return {};
  const std::size_t end = doc.find("\n#", begin + 1);
  return doc.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

/// The texts between backticks in `text`.
std::vector<std::string> quoted(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t open = text.find('`'); open != std::string::npos;) {
    const std::size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(text.substr(open + 1, close - open - 1));
    open = text.find('`', close + 1);
  }
  return out;
}

/// "a, b,\nc" → {a, b, c}
std::vector<std::string> names_in_list(std::string list) {
  for (char& c : list) c = c == '\n' ? ' ' : c;
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t comma = list.find(", ");; comma = list.find(", ", start)) {
    out.push_back(list.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  return out;
}

TEST(Columns, EachEntryIsAtTheIndexOfItsColumn) {
  const auto& table = column_table();
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(table[i].column), i) << table[i].name;
    EXPECT_EQ(&column_info(table[i].column), &table[i]);
    EXPECT_FALSE(table[i].meaning.empty()) << table[i].name;
  }
  EXPECT_EQ(column_name(Column::validation_seconds), "validation_seconds");
  EXPECT_EQ(find_column("test_rmse"), &column_info(Column::test_rmse));
  EXPECT_EQ(find_column("kernel.sigma"), nullptr);
}

TEST(Columns, TheTimedPhasesNameTheirOwnColumns) {
  for (const PhaseColumns& p : kTimedPhases) {
    const std::string phase = p.phase;
    EXPECT_EQ(column_name(p.seconds), phase + "_seconds");
    EXPECT_EQ(column_name(p.seconds_min), phase + "_seconds_min");
    EXPECT_EQ(column_name(p.seconds_max), phase + "_seconds_max");
    EXPECT_EQ(column_name(p.measurements), phase + "_measurements");
  }
  EXPECT_EQ(column_name(kKernelFitPhase.measurements), "kernel_fit_measurements");
}

TEST(Columns, AResultsFileStartsWithTheFixedColumns) {
  EXPECT_EQ(fixed_columns(), column_names(ColumnSet::always));
  EXPECT_EQ(kernel_fit_columns(), column_names(ColumnSet::kernel_fit));
}

TEST(Columns, TheDesignDocumentListsTheFixedColumnsInOrder) {
  const std::string section = results_csv_section();
  ASSERT_FALSE(section.empty()) << "docs/design.md has no section ### results.csv";
  const std::size_t from = section.find("The fixed columns, in order:");
  ASSERT_NE(from, std::string::npos);
  const std::string list = section.substr(from, section.find("| column | what |") - from);
  std::vector<std::string> lists;  // the quoted lists of names: "a, b, …"
  for (const std::string& q : quoted(list)) {
    if (q.find(", ") != std::string::npos) lists.push_back(q);
  }
  ASSERT_EQ(lists.size(), 3U) << "the fixed columns, a learning kernel's, validation's";
  EXPECT_EQ(names_in_list(lists[0]), column_names(ColumnSet::always));
  EXPECT_EQ(names_in_list(lists[1]), column_names(ColumnSet::kernel_fit));
  EXPECT_EQ(names_in_list(lists[2]), column_names(ColumnSet::validation));
}

TEST(Columns, TheDesignDocumentSaysWhatEachColumnIsInTheTablesWords) {
  const std::string section = results_csv_section();
  ASSERT_FALSE(section.empty()) << "docs/design.md has no section ### results.csv";
  std::map<std::string, std::string> documented;  // column → what the document says
  std::istringstream lines(section);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::size_t split = line.find(" | ");
    ASSERT_NE(split, std::string::npos) << line;
    ASSERT_GE(line.size(), split + 5) << line;
    const std::string what = line.substr(split + 3, line.size() - split - 5);
    for (const std::string& name : quoted(line.substr(2, split - 2))) {
      if (name.rfind("<phase>", 0) == 0) {
        for (const PhaseColumns& p : kTimedPhases) {
          documented[p.phase + name.substr(7)] = what;
        }
      } else {
        documented[name] = what;
      }
    }
  }
  for (const auto& [name, what] : documented) {
    const ColumnInfo* column = find_column(name);
    ASSERT_NE(column, nullptr) << name << " is in docs/design.md but not a fixed column";
    EXPECT_EQ(column->meaning, what) << name;
  }
  for (const ColumnInfo& column : column_table()) {
    EXPECT_EQ(documented.count(column.name), 1U)
        << column.name << " is not in docs/design.md's table of columns";
  }
}

}  // namespace
}  // namespace kexp::core
