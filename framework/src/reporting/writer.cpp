// The result writers: a row's fields in insertion order, a value's CSV text, and the CSV
// and JSON-lines writers behind one interface; each row is appended whole with pwrite and
// cut back off the file when a write fails part-way or the other file's write does.
#include "reporting/writer.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "kexp/error.hpp"
#include "kexp/params.hpp"
#include "util/csv.hpp"

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

ResultWriter::ResultWriter(fs::path file) : file_(std::move(file)) {}

ResultWriter::~ResultWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void ResultWriter::begin(const std::vector<std::string>& columns, bool append_rows) {
  columns_ = columns;
  fd_ = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append_rows ? O_APPEND : O_TRUNC),
               0644);
  if (fd_ < 0) {
    throw Error(fmt::format("cannot write {}: {}", file_.string(), std::strerror(errno)));
  }
  const off_t end = ::lseek(fd_, 0, SEEK_END);
  size_ = size_before_row_ = end > 0 ? end : 0;
  if (!append_rows) {
    const std::string text = header();
    if (!text.empty()) append(text);
  }
  size_before_row_ = size_;
}

void ResultWriter::append(const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::pwrite(fd_, text.data() + done, text.size() - done,
                               static_cast<off_t>(size_ + static_cast<long long>(done)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      // Never leave a partial line: cut the file back to where this text began.
      [[maybe_unused]] const int cut = ::ftruncate(fd_, static_cast<off_t>(size_));
      throw Error(fmt::format("writing {} failed: {}", file_.string(), std::strerror(error)));
    }
    done += static_cast<std::size_t>(n);
  }
  size_ += static_cast<long long>(text.size());
}

void ResultWriter::write(const Row& row) {
  size_before_row_ = size_;
  append(line(row));
}

void ResultWriter::take_back() {
  if (fd_ < 0 || size_ == size_before_row_) return;
  if (::ftruncate(fd_, static_cast<off_t>(size_before_row_)) == 0) size_ = size_before_row_;
}

void ResultWriter::end() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string CsvWriter::header() const {
  std::string text;
  for (std::size_t i = 0; i < columns().size(); ++i) {
    text += (i ? "," : "") + csv_escape(columns()[i]);
  }
  return text + '\n';
}

std::string CsvWriter::line(const Row& row) const {
  std::string text;
  for (std::size_t i = 0; i < columns().size(); ++i) {
    if (i) text += ',';
    if (const FieldValue* v = row.get(columns()[i])) text += csv_escape(to_text(*v));
  }
  return text + '\n';
}

std::string JsonlWriter::line(const Row& row) const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const std::string& c : columns()) {
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
    if (std::find(columns().begin(), columns().end(), name) != columns().end()) continue;
    if (const auto* s = std::get_if<std::string>(&v)) {
      nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(*s, nullptr, false);
      j[name] = parsed.is_discarded() ? nlohmann::ordered_json(*s) : parsed;
    }
  }
  // Text that is not valid UTF-8 (a plugin's message) is replaced, never a reason to fail.
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + '\n';
}

void ResultWriters::begin(const std::vector<std::string>& columns, bool append) {
  for (auto& w : writers_) w->begin(columns, append);
}

void ResultWriters::write(const Row& row) {
  for (std::size_t i = 0; i < writers_.size(); ++i) {
    try {
      writers_[i]->write(row);
    } catch (...) {
      for (std::size_t k = 0; k < i; ++k) writers_[k]->take_back();
      throw;
    }
  }
}

void ResultWriters::end() {
  for (auto& w : writers_) w->end();
}

}  // namespace kexp::core
