// Result writers: reporters behind one interface (the shape of Google Benchmark's
// console/JSON/CSV reporters). Each receives the column list once, then rows as cells
// finish, and flushes every row, so a run that is killed keeps every finished cell.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kexp::core {

/// A value in a results row; monostate is empty (the column does not apply).
using FieldValue = std::variant<std::monostate, double, std::int64_t, bool, std::string>;

/// One row: values by column name, in any order; columns not set are empty.
class Row {
 public:
  void set(const std::string& column, FieldValue value);
  [[nodiscard]] const FieldValue* get(const std::string& column) const;
  [[nodiscard]] const std::vector<std::pair<std::string, FieldValue>>& fields() const {
    return fields_;
  }

 private:
  std::vector<std::pair<std::string, FieldValue>> fields_;
};

/// Text of a value for CSV: doubles in shortest round-trip form, empty for monostate.
std::string to_text(const FieldValue& value);

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  /// Called once with every column, in order. `append`: the file already holds rows
  /// with these columns (resume) and is continued.
  virtual void begin(const std::vector<std::string>& columns, bool append) = 0;
  virtual void write(const Row& row) = 0;
  virtual void end() = 0;
};

/// results.csv: RFC 4180 quoting, a header line, one line per row.
class CsvWriter final : public ResultWriter {
 public:
  explicit CsvWriter(std::filesystem::path file);
  void begin(const std::vector<std::string>& columns, bool append) override;
  void write(const Row& row) override;
  void end() override;

 private:
  std::filesystem::path file_;
  std::ofstream out_;
  std::vector<std::string> columns_;
};

/// results.jsonl: one JSON object per row, empty fields left out.
class JsonlWriter final : public ResultWriter {
 public:
  explicit JsonlWriter(std::filesystem::path file);
  void begin(const std::vector<std::string>& columns, bool append) override;
  void write(const Row& row) override;
  void end() override;

 private:
  std::filesystem::path file_;
  std::ofstream out_;
  std::vector<std::string> columns_;
};

/// Quotes a CSV field when it needs it.
std::string csv_escape(const std::string& field);

/// Splits one CSV line (RFC 4180 quoting, no embedded newlines).
std::vector<std::string> csv_split(const std::string& line);

/// A results.csv read back: its header and rows of text fields.
struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  [[nodiscard]] std::optional<std::size_t> column(const std::string& name) const;
};

CsvTable read_csv(const std::filesystem::path& file);

/// Writes a whole file atomically: to a temporary name in the same folder, then renamed.
void write_file_atomically(const std::filesystem::path& file, const std::string& content);

}  // namespace kexp::core
