// Test support for reading what a run wrote: a column of results.csv by name.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "util/csv.hpp"

namespace kexp::test {

/// The index of column `name` in `t`; a test failure (and 0) when there is none.
inline std::size_t column(const core::CsvTable& t, const std::string& name) {
  const auto i = t.column(name);
  EXPECT_TRUE(i.has_value()) << "no column " << name;
  return i.value_or(0);
}

}  // namespace kexp::test
