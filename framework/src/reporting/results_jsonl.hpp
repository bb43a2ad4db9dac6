// results.jsonl read back as the typed source of a folder's rows: each line's object, the
// CSV text of each of its fields as CsvWriter writes the same value, and the check that a
// folder's results.csv says what its results.jsonl says, row by row and column by column.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "util/csv.hpp"

namespace kexp::core {

/// The rows of a results.jsonl, a JSON object per non-blank line, in order. Throws
/// kexp::Error naming the file and line of one that is not a JSON object.
std::vector<nlohmann::ordered_json> read_jsonl_rows(const std::filesystem::path& file);

/// The CSV text of `column` in `row`: empty when the row lacks it, a string as it is, a
/// number or boolean as kexp::format_value writes it (so "nan" stays "nan").
std::string csv_field(const nlohmann::ordered_json& row, const std::string& column);

/// The table of `rows` under `columns`, every field as csv_field gives it.
CsvTable csv_table_of(const std::vector<std::string>& columns,
                      const std::vector<nlohmann::ordered_json>& rows);

/// Where `csv` and `rows` (a folder's two tables) first differ, in words naming the row
/// (1-based, as a spreadsheet counts data rows) and column and both values, or that their
/// row counts differ; nothing when every field of every row agrees.
std::optional<std::string> csv_jsonl_mismatch(const CsvTable& csv,
                                              const std::vector<nlohmann::ordered_json>& rows);

}  // namespace kexp::core
