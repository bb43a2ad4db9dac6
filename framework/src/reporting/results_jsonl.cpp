// results.jsonl read back, its fields as CSV text, and its agreement with results.csv.
#include "reporting/results_jsonl.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <fstream>

#include "kexp/error.hpp"
#include "kexp/params.hpp"

namespace kexp::core {

std::vector<nlohmann::ordered_json> read_jsonl_rows(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(fmt::format("cannot read {}", file.string()));
  std::vector<nlohmann::ordered_json> rows;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto row = nlohmann::ordered_json::parse(line, nullptr, false);
    if (row.is_discarded() || !row.is_object()) {
      throw Error(fmt::format("{}:{}: not a JSON object; results.jsonl holds one row per line",
                              file.string(), number));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string csv_field(const nlohmann::ordered_json& row, const std::string& column) {
  const auto it = row.find(column);
  if (it == row.end() || it->is_null()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_boolean()) return format_value(ParamValue{it->get<bool>()});
  if (it->is_number_integer()) return format_value(ParamValue{it->get<std::int64_t>()});
  if (it->is_number_float()) return format_value(ParamValue{it->get<double>()});
  return it->dump();  // an array or object: not a CSV column's value, shown as JSON
}

CsvTable csv_table_of(const std::vector<std::string>& columns,
                      const std::vector<nlohmann::ordered_json>& rows) {
  CsvTable table;
  table.columns = columns;
  for (const auto& row : rows) {
    std::vector<std::string>& fields = table.rows.emplace_back();
    for (const std::string& c : columns) fields.push_back(csv_field(row, c));
  }
  return table;
}

std::optional<std::string> csv_jsonl_mismatch(const CsvTable& csv,
                                              const std::vector<nlohmann::ordered_json>& rows) {
  if (csv.rows.size() != rows.size()) {
    return fmt::format("results.csv has {} rows and results.jsonl {}", csv.rows.size(),
                       rows.size());
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < csv.columns.size(); ++c) {
      const std::string csv_text = c < csv.rows[r].size() ? csv.rows[r][c] : std::string();
      const std::string json_text = csv_field(rows[r], csv.columns[c]);
      if (csv_text == json_text) continue;
      return fmt::format("row {}, column {}: results.csv has '{}', results.jsonl '{}'", r + 1,
                         csv.columns[c], csv_text, json_text);
    }
  }
  return std::nullopt;
}

}  // namespace kexp::core
