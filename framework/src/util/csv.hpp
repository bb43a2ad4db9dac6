// CSV as results.csv writes and reads it: RFC 4180 quoting, one record per line.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kexp::core {

/// Quotes a field when it holds a comma, a quote or a line break (doubling quotes).
/// Line breaks become spaces, so that every record stays on one line.
std::string csv_escape(const std::string& field);

/// Splits one CSV line (RFC 4180 quoting, no embedded line breaks).
std::vector<std::string> csv_split(const std::string& line);

/// A CSV file read back: its header and rows of text fields.
struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  [[nodiscard]] std::optional<std::size_t> column(const std::string& name) const;
};

/// Reads a CSV file; blank lines are skipped. Throws kexp::Error when it cannot be read.
CsvTable read_csv(const std::filesystem::path& file);

/// The table as CSV text: header and rows, each line ended by '\n'.
std::string csv_text(const CsvTable& table);

}  // namespace kexp::core
