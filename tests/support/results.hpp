// Test support for reading what a run wrote: a column of results.csv by name, and its rows
// as maps from column name to field.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "util/csv.hpp"

namespace kexp::test {

/// The index of column `name` in `t`; a test failure (and 0) when there is none.
inline std::size_t column(const core::CsvTable& t, const std::string& name) {
  const auto i = t.column(name);
  EXPECT_TRUE(i.has_value()) << "no column " << name;
  return i.value_or(0);
}

/// A row of results.csv: column name → field.
using ResultRow = std::map<std::string, std::string>;

/// The rows of `folder`/results.csv.
inline std::vector<ResultRow> result_rows(const std::filesystem::path& folder) {
  const core::CsvTable t = core::read_csv(folder / "results.csv");
  std::vector<ResultRow> out;
  for (const auto& r : t.rows) {
    ResultRow row;
    for (std::size_t i = 0; i < t.columns.size() && i < r.size(); ++i) row[t.columns[i]] = r[i];
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace kexp::test
