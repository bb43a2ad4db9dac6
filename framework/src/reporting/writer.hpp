// Result writers: reporters behind one interface (the shape of Google Benchmark's
// console/JSON/CSV reporters). Each receives the column list once, then rows as cells
// finish, and flushes every row, so a run that is killed keeps every finished cell.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
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

/// A reporter of rows. Every row is written whole and flushed to the operating system
/// before write() returns, so a run that is killed keeps every row it finished; a row
/// that cannot be written whole (a full disk) is cut back off the file, so the file
/// never ends in a partial row.
class ResultWriter {
 public:
  explicit ResultWriter(std::filesystem::path file);
  virtual ~ResultWriter();
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  /// Called once with every column, in order. `append`: the file already holds rows
  /// with these columns (resume) and is continued. Throws kexp::Error.
  void begin(const std::vector<std::string>& columns, bool append);
  /// Writes a row. Throws kexp::Error, the file as it was before the row.
  void write(const Row& row);
  /// Cuts the last row written back off the file: a row written to one file but not to
  /// the others is taken back from all (ResultWriters::write).
  void take_back();
  void end();

 protected:
  [[nodiscard]] const std::vector<std::string>& columns() const { return columns_; }

 private:
  virtual std::string header() const = 0;
  virtual std::string line(const Row& row) const = 0;
  void append(const std::string& text);

  std::filesystem::path file_;
  int fd_ = -1;
  long long size_ = 0, size_before_row_ = 0;
  std::vector<std::string> columns_;
};

/// results.csv: RFC 4180 quoting, a header line, one line per row.
class CsvWriter final : public ResultWriter {
 public:
  using ResultWriter::ResultWriter;

 private:
  std::string header() const override;
  std::string line(const Row& row) const override;
};

/// results.jsonl: one JSON object per row, empty fields left out.
class JsonlWriter final : public ResultWriter {
 public:
  using ResultWriter::ResultWriter;

 private:
  std::string header() const override { return {}; }
  std::string line(const Row& row) const override;
};

/// Several writers written together: a row is in every file or in none.
class ResultWriters {
 public:
  void add(std::unique_ptr<ResultWriter> writer) { writers_.push_back(std::move(writer)); }
  void begin(const std::vector<std::string>& columns, bool append);
  /// Writes the row to every file; when one fails, takes it back from those written and
  /// throws kexp::Error.
  void write(const Row& row);
  void end();

 private:
  std::vector<std::unique_ptr<ResultWriter>> writers_;
};

}  // namespace kexp::core
