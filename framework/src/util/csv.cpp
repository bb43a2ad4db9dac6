// CSV as results.csv writes and reads it: fields quoted where RFC 4180 asks, a line split
// into fields, a whole file read into a table with its header, and a table written back.
#include "util/csv.hpp"

#include <fmt/format.h>

#include <fstream>

#include "kexp/error.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

std::string csv_escape(const std::string& field) {
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  out += '"';
  return out;
}

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(field));
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  out.push_back(std::move(field));
  return out;
}

std::optional<std::size_t> CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return i;
  }
  return std::nullopt;
}

CsvTable read_csv(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(fmt::format("cannot read {}", file.string()));
  CsvTable table;
  std::string line;
  if (std::getline(in, line)) table.columns = csv_split(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    table.rows.push_back(csv_split(line));
  }
  return table;
}

std::string csv_text(const CsvTable& table) {
  std::string text;
  const auto line = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) text += (i ? "," : "") + csv_escape(fields[i]);
    text += '\n';
  };
  line(table.columns);
  for (const auto& row : table.rows) line(row);
  return text;
}

}  // namespace kexp::core
