#include "reporting/writer.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "kexp/error.hpp"
#include "kexp/params.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

void Row::set(const std::string& column, FieldValue value) {
  for (auto& [name, v] : fields_) {
    if (name == column) {
      v = std::move(value);
      return;
    }
  }
  fields_.emplace_back(column, std::move(value));
}

const FieldValue* Row::get(const std::string& column) const {
  for (const auto& [name, v] : fields_) {
    if (name == column) return &v;
  }
  return nullptr;
}

std::string to_text(const FieldValue& value) {
  // The same text as parameter values and cell ids (kexp::format_value); empty for none.
  return std::visit(
      [](const auto& v) -> std::string {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) {
          return {};
        } else {
          return format_value(ParamValue{v});
        }
      },
      value);
}

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

namespace {

std::ofstream open_for_rows(const fs::path& file, bool append) {
  std::ofstream out(file, append ? std::ios::app : std::ios::trunc);
  if (!out) throw Error(fmt::format("cannot write {}", file.string()));
  return out;
}

}  // namespace

CsvWriter::CsvWriter(fs::path file) : file_(std::move(file)) {}

void CsvWriter::begin(const std::vector<std::string>& columns, bool append) {
  columns_ = columns;
  out_ = open_for_rows(file_, append);
  if (!append) {
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      out_ << (i ? "," : "") << csv_escape(columns_[i]);
    }
    out_ << '\n';
    out_.flush();
  }
}

void CsvWriter::write(const Row& row) {
  std::string line;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (i) line += ',';
    if (const FieldValue* v = row.get(columns_[i])) line += csv_escape(to_text(*v));
  }
  out_ << line << '\n';
  out_.flush();
  if (!out_) throw Error(fmt::format("writing {} failed (disk full?)", file_.string()));
}

void CsvWriter::end() { out_.close(); }

JsonlWriter::JsonlWriter(fs::path file) : file_(std::move(file)) {}

void JsonlWriter::begin(const std::vector<std::string>& columns, bool append) {
  columns_ = columns;
  out_ = open_for_rows(file_, append);
}

void JsonlWriter::write(const Row& row) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const std::string& c : columns_) {
    const FieldValue* v = row.get(c);
    if (v == nullptr) continue;
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::monostate>) {
            // left out
          } else if constexpr (std::is_same_v<T, double>) {
            if (std::isfinite(x)) {
              j[c] = x;
            } else {
              j[c] = to_text(x);
            }
          } else {
            j[c] = x;
          }
        },
        *v);
  }
  // Extra fields not in the CSV columns (loss curves and the like) go to JSONL only.
  for (const auto& [name, v] : row.fields()) {
    if (std::find(columns_.begin(), columns_.end(), name) != columns_.end()) continue;
    if (const auto* s = std::get_if<std::string>(&v)) {
      nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(*s, nullptr, false);
      j[name] = parsed.is_discarded() ? nlohmann::ordered_json(*s) : parsed;
    }
  }
  out_ << j.dump() << '\n';
  out_.flush();
  if (!out_) throw Error(fmt::format("writing {} failed (disk full?)", file_.string()));
}

void JsonlWriter::end() { out_.close(); }

void write_file_atomically(const fs::path& file, const std::string& content) {
  const fs::path tmp = file.string() + fmt::format(".tmp{}", ::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    if (!out) throw Error(fmt::format("cannot write {}", tmp.string()));
    out << content;
    out.flush();
    if (!out) throw Error(fmt::format("writing {} failed (disk full?)", tmp.string()));
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error(fmt::format("cannot move {} into place: {}", file.string(), ec.message()));
  }
}

}  // namespace kexp::core
