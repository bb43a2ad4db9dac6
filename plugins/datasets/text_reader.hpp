// What the file datasets (csv, libsvm) share: reading a file named in a config, splitting
// lines into located fields, strict number parsing, the NaN/Inf policy and the mapping of
// binary labels to ±1.
//
// Every problem is a kexp::DataError that names the file, the line and, where it applies,
// the column (1-based, in bytes), and says how to fix it.
//
// A data file is read only when it is a regular file (a symbolic link to one is fine) of at
// most `max_file_bytes`; a device, a named pipe or a socket is refused before anything is
// read from it, so that /dev/zero cannot fill the memory and a FIFO cannot block. A line
// has at most `max_features` + 1 fields. The parsing works on the text of a file in
// memory (TextFile), so that it can be tested and fuzzed without files.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kexp/kexp.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace kexp_datasets {

namespace fs = std::filesystem;

/// The files of a file dataset, declared alike by csv, libsvm and sequences.
constexpr kexp::ParamSpec kTrainFileParam =
    kexp::param::string("train", nullptr, "training file, relative to the config file");
constexpr kexp::ParamSpec kTestFileParam =
    kexp::param::string("test", "",
                        "test file, used as the test set as it is (default: none, the "
                        "runner splits off test_fraction of the training file)");

/// The parameters that bound what a data file may cost, declared alike by csv and libsvm.
constexpr kexp::ParamSpec kMaxFileBytesParam =
    kexp::param::integer("max_file_bytes", "1073741824",
                         "largest data file read, in bytes (default 1 GiB); a larger file is "
                         "refused")
        .at_least(1);
constexpr kexp::ParamSpec kMaxFeaturesParam =
    kexp::param::integer("max_features", "100000",
                         "largest number of features a file may give the data; more is "
                         "refused before any memory is taken for them")
        .at_least(1)
        .at_most(INT_MAX - 1);

/// One non-blank line of a text file: its 1-based number and its text without the line end
/// (a view into the TextFile).
struct TextLine {
  int number = 0;
  std::string_view text;
};

/// A data file as read: the name used in messages, the parameter that named it (`key`,
/// with the text `given`), and its whole text. Copies share the text.
struct TextFile {
  std::string name;
  std::string key;
  std::string given;
  std::string_view text;  ///< held by `storage`
  std::shared_ptr<const char> storage;
};

/// Reads the test file, if there is one; called once the training file has been parsed, so
/// that the errors of the training file come first.
using ReadTestFile = std::function<std::optional<TextFile>()>;

/// "(train: data/x.csv)": how a message refers to the parameter that named a file.
inline std::string named_by(const TextFile& file) {
  return "(" + file.key + ": " + file.given + ")";
}

/// The shortest text that reads back to `v`.
inline std::string number_text(double v) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, r.ptr);
}

/// "1073741824 bytes (1 GiB)".
inline std::string byte_count(std::uint64_t bytes) {
  std::string text = std::to_string(bytes) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int unit = -1;
  while (v >= 1024 && unit < 3) {
    v /= 1024;
    ++unit;
  }
  if (unit >= 0) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, " (%.3g %s)", v, units[unit]);
    text += buffer;
  }
  return text;
}

/// `text` in quotes for a message, cut after 40 bytes.
inline std::string in_quotes(std::string_view text) {
  constexpr std::size_t kShown = 40;
  if (text.size() <= kShown) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kShown)) + "…' (" + std::to_string(text.size()) +
         " bytes)";
}

/// The 1-based column of byte `i` of a line, saturated at INT_MAX.
inline int column_at(std::size_t i) {
  return i < static_cast<std::size_t>(INT_MAX) ? static_cast<int>(i) + 1 : INT_MAX;
}

/// The non-blank lines of a TextFile, one after the other. Blank lines are skipped (but
/// counted); a UTF-8 byte-order mark and carriage returns are removed.
class LineReader {
 public:
  explicit LineReader(const TextFile& file) : file_(file) {}

  /// Where a reader stands: the byte it reads from next and the number of the line before.
  struct Mark {
    std::size_t position = 0;
    int line = 0;
  };
  /// A reader that goes on from `mark`, taken from another reader of the same file or at
  /// the start of a line, and stops before byte `end`, the start of a line or the end of
  /// the text.
  LineReader(const TextFile& file, Mark mark, std::size_t end = std::string_view::npos)
      : file_(file),
        pos_(mark.position),
        number_(mark.line),
        end_(std::min(end, file.text.size())) {}
  Mark mark() const { return {pos_, number_}; }

  /// The next non-blank line; false at the end of the file.
  bool next(TextLine& line) {
    const std::string_view text = file_.text;
    while (pos_ < end_) {
      const std::size_t end = std::min(text.find('\n', pos_), end_);
      std::string_view s = text.substr(pos_, end - pos_);
      pos_ = end + 1;
      if (number_ == INT_MAX) {
        throw kexp::DataError(kexp::SourceLocation{file_.name, number_, 0},
                              "the file has more lines than kexp can count; split it");
      }
      ++number_;
      if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
      if (number_ == 1 && s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
      if (s.find_first_not_of(" \t") == std::string_view::npos) continue;
      line = {number_, s};
      return true;
    }
    return false;
  }

 private:
  const TextFile& file_;
  std::size_t pos_ = 0;
  int number_ = 0;
  std::size_t end_ = file_.text.size();
};

/// Bytes per stretch of a file parsed on its own, in parallel with the others: enough that
/// a thread's share outweighs its start.
constexpr std::size_t kStretchBytes = std::size_t{4} << 20U;

/// A stretch of a file's lines: from `start` (the start of a line, and the number of the
/// line before it) to the byte `end` (the start of the next stretch or the end of the text).
struct Stretch {
  LineReader::Mark start;
  std::size_t end = 0;
};

/// The lines of `file` from `from` on, cut at line ends into stretches of about `bytes`
/// bytes (at least one), each with the number of the line before it: the line ends are
/// counted on every thread.
inline std::vector<Stretch> stretches(const TextFile& file, LineReader::Mark from,
                                      std::size_t bytes) {
  const std::string_view text = file.text;
  bytes = std::max<std::size_t>(bytes, 1);
  std::vector<std::size_t> starts{std::min(from.position, text.size())};
  while (text.size() - starts.back() > bytes) {
    const std::size_t newline = text.find('\n', starts.back() + bytes);
    if (newline == std::string_view::npos || newline + 1 >= text.size()) break;
    starts.push_back(newline + 1);
  }
  const std::size_t count = starts.size();
  starts.push_back(text.size());
  std::vector<std::size_t> line_ends(count, 0);
#pragma omp parallel for schedule(static) num_threads(kexp::thread_count())
  for (std::size_t k = 0; k < count; ++k) {
    // memchr from line end to line end: lines of a hundred bytes are counted several
    // times faster than by std::count's byte after byte
    const char* at = text.data() + starts[k];
    const char* const end = text.data() + starts[k + 1];
    std::size_t ends = 0;
    while (const void* newline = std::memchr(at, '\n', static_cast<std::size_t>(end - at))) {
      ++ends;
      at = static_cast<const char*>(newline) + 1;
    }
    line_ends[k] = ends;
  }
  std::vector<Stretch> out(count);
  auto line = static_cast<std::size_t>(from.line);
  for (std::size_t k = 0; k < count; ++k) {
    // past INT_MAX lines, the stretch's reader refuses its first line: an error before it
    // in the file still comes first
    out[k] = {{starts[k], static_cast<int>(std::min<std::size_t>(line, INT_MAX))}, starts[k + 1]};
    line += line_ends[k];
  }
  return out;
}

/// Removes the columns of `X` whose flag in `dropped` is set, the others kept in order: the
/// samples of rows left out under on_nonfinite: drop.
inline void drop_columns(arma::mat& X, const std::vector<char>& dropped) {
  arma::uword kept = 0;
  for (arma::uword r = 0; r < X.n_cols; ++r) {
    if (dropped[r] != 0) continue;
    if (kept != r) X.col(kept) = X.col(r);
    ++kept;
  }
  X.resize(X.n_rows, kept);
}

/// Removes the elements of `v` whose flag in `dropped` is set, the others kept in order.
template <class T>
void drop_elements(std::vector<T>& v, const std::vector<char>& dropped) {
  std::size_t kept = 0;
  for (std::size_t r = 0; r < v.size(); ++r) {
    if (dropped[r] == 0) v[kept++] = v[r];
  }
  v.resize(kept);
}

/// Calls read(k) for the parts k = 0 … parts − 1 of a file, on kexp::thread_count()
/// threads. When parts throw, rethrows what the first of them in file order threw: the
/// error a reading from start to end would have met first. A part after one that has
/// thrown need not be read.
template <class Read>
void read_in_parallel(std::size_t parts, const Read& read) {
  std::vector<std::exception_ptr> failed(parts);
  std::atomic<std::size_t> first_failed{parts};
#pragma omp parallel for schedule(dynamic, 1) num_threads(kexp::thread_count())
  for (std::size_t k = 0; k < parts; ++k) {
    if (k > first_failed.load()) continue;
    try {
      read(k);
    } catch (...) {
      failed[k] = std::current_exception();
      std::size_t f = first_failed.load();
      while (k < f && !first_failed.compare_exchange_weak(f, k)) {
      }
    }
  }
  for (const std::exception_ptr& e : failed) {
    if (e) std::rethrow_exception(e);
  }
}

/// A TextFile of `text`, the content of the file `name` given by parameter `key` as
/// `given`. Throws DataError if it has no non-blank line.
inline TextFile text_file(std::string name, std::string key, std::string given,
                          std::shared_ptr<const char> storage, std::size_t size) {
  TextFile file{std::move(name), std::move(key), std::move(given),
                std::string_view(storage.get(), size), std::move(storage)};
  TextLine first;
  if (!LineReader(file).next(first)) {
    throw kexp::DataError(kexp::SourceLocation{file.name, 0, 0},
                          "the file is empty; it needs at least one row of data " + named_by(file));
  }
  return file;
}

/// A TextFile of a copy of `text` (see above).
inline TextFile text_file(std::string name, std::string key, std::string given,
                          std::string_view text) {
  auto copy = std::make_shared<const std::string>(text);
  std::shared_ptr<const char> storage(copy, copy->data());
  return text_file(std::move(name), std::move(key), std::move(given), std::move(storage),
                   text.size());
}

/// A buffer of `bytes` bytes, not cleared, backed by transparent huge pages where the
/// machine has them: a file of a hundred megabytes is then read with hundreds of page faults
/// instead of tens of thousands.
inline std::unique_ptr<char[]> text_buffer(std::size_t bytes) {
  std::unique_ptr<char[]> buffer(new char[bytes]);  // NOLINT(*-avoid-c-arrays)
  kexp::advise_huge_pages(buffer.get(), bytes);
  return buffer;
}

inline const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISSOCK(mode)) return "a socket";
  return "of another kind";
}

/// `path` resolved against the config's folder, as docs/design.md asks of every file a config
/// names.
inline fs::path resolve(const kexp::DatasetContext& context, const std::string& path) {
  fs::path p(path);
  if (p.is_relative() && !context.base_dir.empty()) p = context.base_dir / p;
  return p.lexically_normal();
}

/// How read_text_file reads a large file: in parts of `part_bytes` read in parallel, from
/// `parallel_from` bytes on. A file of 142 MB went from the page cache into fresh memory
/// 1.5–1.8 times as fast this way on two threads as with one read() (readers_bench).
struct ReadInParts {
  std::size_t parallel_from = std::size_t{16} << 20U;
  std::size_t part_bytes = std::size_t{16} << 20U;
};

/// Reads bytes [0, size) of `fd` into `text` by pread, one part after another on each of
/// kexp::thread_count() threads. Returns how many bytes from the start were read without
/// a gap: `size`, or fewer when the file is shorter (up to the end of the first part that
/// came short) or a read failed (`error` then holds its errno).
inline std::size_t read_parts(int fd, char* text, std::size_t size, std::size_t part_bytes,
                              int& error) {
  part_bytes = std::max<std::size_t>(part_bytes, 1);
  const std::size_t parts = (size + part_bytes - 1) / part_bytes;
  std::vector<std::size_t> got(parts, 0);
  std::vector<int> errors(parts, 0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(kexp::thread_count())
  for (std::size_t k = 0; k < parts; ++k) {
    const std::size_t begin = k * part_bytes, end = std::min(size, begin + part_bytes);
    std::size_t at = begin;
    while (at < end) {
      const ssize_t r = ::pread(fd, text + at, end - at, static_cast<off_t>(at));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) errors[k] = errno;
      if (r <= 0) break;
      at += static_cast<std::size_t>(r);
    }
    got[k] = at - begin;
  }
  std::size_t length = 0;
  for (std::size_t k = 0; k < parts; ++k) {
    error = errors[k];
    length += got[k];
    if (error != 0 || length < std::min(size, (k + 1) * part_bytes)) break;
  }
  return length;
}

/// Reads the file given by parameter `key` (the text `given`, resolved to `path`). Throws
/// DataError if the file is missing, not a regular file, larger than `max_bytes`,
/// unreadable or has no non-blank line.
inline TextFile read_text_file(const fs::path& path, const std::string& key,
                               const std::string& given, std::uint64_t max_bytes,
                               const ReadInParts& parts = {}) {
  const std::string name = path.string();
  const std::string named = "(" + key + ": " + given + ")";
  auto fail = [&](const std::string& message) {
    return kexp::DataError(kexp::SourceLocation{name, 0, 0}, message);
  };
  auto not_regular = [&](mode_t mode) {
    return fail(std::string("is ") + file_kind(mode) + ", not a regular file " + named +
                "; data is read only from regular files");
  };
  auto too_large = [&](std::uint64_t size) {
    return fail("the file has " + byte_count(size) + ", more than max_file_bytes, " +
                byte_count(max_bytes) + "; set max_file_bytes in the dataset block to read " +
                "a larger file " + named);
  };
  // stat follows symbolic links: a link to a regular file is read, a device never opened
  struct stat st {};
  if (::stat(name.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      throw fail("the file does not exist (" + key + ": " + given +
                 "; a relative path is taken from the config file's folder)");
    }
    throw fail(std::string("cannot be read: ") + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) throw fail("is a folder, not a file " + named);
  if (!S_ISREG(st.st_mode)) throw not_regular(st.st_mode);
  // O_NONBLOCK: should the path have become a FIFO since, opening it does not wait
  const int fd = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw fail(std::string("cannot be read: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0) throw fail(std::string("cannot be read: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw not_regular(st.st_mode);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) throw too_large(size);
  // Read straight into one buffer of the file's size and a byte more, to see whether the
  // file grew (64 KiB at least: a file of /proc says it has 0 bytes); a file that grows
  // while it is read is held to the same limit.
  std::size_t capacity = static_cast<std::size_t>(
      std::min<std::uint64_t>(std::max<std::uint64_t>(size + 1, 1U << 16U), max_bytes + 1));
  std::unique_ptr<char[]> text = text_buffer(capacity);  // NOLINT(*-avoid-c-arrays)
  std::size_t length = 0;
  if (size >= parts.parallel_from && size < capacity) {
    // the bytes stat gave, in parts; then on from where they end, as a small file is read
    int error = 0;
    length = read_parts(fd, text.get(), static_cast<std::size_t>(size), parts.part_bytes, error);
    if (error != 0) throw fail(std::string("reading the file failed: ") + std::strerror(error));
    if (::lseek(fd, static_cast<off_t>(length), SEEK_SET) < 0) {
      throw fail(std::string("reading the file failed: ") + std::strerror(errno));
    }
  }
  while (true) {
    if (length == capacity) {
      if (length > max_bytes) {
        throw fail("the file has more than " + byte_count(max_bytes) +
                   ", max_file_bytes; set max_file_bytes in the dataset block to read a larger "
                   "file " +
                   named);
      }
      capacity = std::min<std::uint64_t>(2 * capacity, max_bytes + 1);
      std::unique_ptr<char[]> larger = text_buffer(capacity);  // NOLINT(*-avoid-c-arrays)
      std::memcpy(larger.get(), text.get(), length);
      text = std::move(larger);
    }
    const ssize_t got = ::read(fd, text.get() + length, capacity - length);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      throw fail(std::string("reading the file failed: ") + std::strerror(errno));
    }
    if (got == 0) break;
    length += static_cast<std::size_t>(got);
  }
  return text_file(name, key, given,
                   std::shared_ptr<const char>(
                       text.release(), std::default_delete<char[]>()),  // NOLINT(*-avoid-c-arrays)
                   length);
}

/// The `train` and `test` files of a file dataset (csv, libsvm, sequences), as its
/// parameters name them, read at most `max_file_bytes` each, relative to the config's folder.
class DataFiles {
 public:
  explicit DataFiles(const kexp::Params& p)
      : train_(p.string("train")),
        test_(p.string("test")),
        max_file_bytes_(static_cast<std::uint64_t>(p.integer("max_file_bytes"))) {}

  /// parse(train, read_test): the training file, and what reads the test file (none when
  /// `test` is empty) once the training file has been parsed.
  template <class Parse>
  kexp::Data load(const kexp::DatasetContext& context, const Parse& parse) const {
    const TextFile train = read(context, "train", train_);
    const ReadTestFile read_test = [&]() -> std::optional<TextFile> {
      if (test_.empty()) return std::nullopt;
      return read(context, "test", test_);
    };
    return parse(train, read_test);
  }

 private:
  TextFile read(const kexp::DatasetContext& context, const std::string& key,
                const std::string& given) const {
    return read_text_file(resolve(context, given), key, given, max_file_bytes_);
  }

  std::string train_, test_;
  std::uint64_t max_file_bytes_;
};

/// One field of a line: its text (unquoted, spaces around it removed) and the column where
/// it starts. The text is a view into the line, or into the Fields that hold it for a quoted
/// field with a doubled quote, and lives as long as they do.
struct Field {
  std::string_view text;
  int column = 0;
};

/// The fields of one line, reused from line to line so that a million lines are split
/// without a string made per field.
class Fields {
 public:
  Fields() = default;
  // a copy's views would point into the original's storage
  Fields(const Fields&) = delete;
  Fields& operator=(const Fields&) = delete;
  Fields(Fields&&) = default;
  Fields& operator=(Fields&&) = default;
  ~Fields() = default;

  std::size_t size() const { return list_.size(); }
  bool empty() const { return list_.empty(); }
  const Field& operator[](std::size_t i) const { return list_[i]; }
  std::vector<Field>::const_iterator begin() const { return list_.begin(); }
  std::vector<Field>::const_iterator end() const { return list_.end(); }

  void clear() {
    list_.clear();
    unescaped_.clear();
  }
  void add(std::string_view text, int column) { list_.push_back({text, column}); }
  /// Storage for the text of a quoted field whose doubled quotes were made single; its
  /// address stays fixed until clear().
  std::string& unescaped() { return unescaped_.emplace_back(); }

 private:
  std::vector<Field> list_;
  std::deque<std::string> unescaped_;
};

/// What to do with a row that holds NaN, ±Inf or a missing value.
enum class NonFinitePolicy { Error, Drop };

inline NonFinitePolicy nonfinite_policy(const kexp::Params& params) {
  return params.string("on_nonfinite") == "drop" ? NonFinitePolicy::Drop : NonFinitePolicy::Error;
}

inline kexp::Task task_of(const kexp::Params& params) {
  return params.string("task") == "classification" ? kexp::Task::Classification
                                                   : kexp::Task::Regression;
}

/// Whether `text` is the mark of a missing value: empty or NA.
inline bool is_missing(std::string_view text) { return text.empty() || text == "NA"; }

/// Parses the whole of `text` as a decimal number (an optional sign, digits, a point, an
/// exponent; also nan and inf, which the caller treats by the NaN/Inf policy). False when
/// `text` is not a number. Independent of the locale.
inline bool parse_number(std::string_view text, double& out) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, out);
  return r.ec == std::errc() && r.ptr == end;
}

/// Splits `line` at `delimiter`, or at runs of spaces and tabs when `delimiter` is 0.
/// With a delimiter, a field may be enclosed in double quotes (a quote inside written
/// twice), as in RFC 4180, but may not span lines. A line of more than `max_fields` fields
/// is an error: the limit max_features allows max_fields − 1 features. Into `fields`
/// (cleared first), so that a reader reuses them for every line.
inline void split_fields(const TextLine& line, char delimiter, const std::string& file,
                         std::size_t max_fields, Fields& fields) {
  fields.clear();
  const std::string_view s = line.text;
  const std::size_t n = s.size();
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  auto add = [&](std::string_view text, int column) {
    if (fields.size() == max_fields) {
      throw kexp::DataError(
          kexp::SourceLocation{file, line.number, column},
          "this line has more than " + std::to_string(max_fields) +
              " fields, more than max_features, " + std::to_string(max_fields - 1) +
              ", allows (features and a target or label); set max_features in the dataset "
              "block if the data has more features");
    }
    fields.add(text, column);
  };
  if (delimiter == 0) {
    std::size_t i = 0;
    while (i < n) {
      while (i < n && blank(s[i])) ++i;
      if (i == n) break;
      const std::size_t start = i;
      while (i < n && !blank(s[i])) ++i;
      add(s.substr(start, i - start), column_at(start));
    }
    return;
  }
  std::size_t i = 0;
  while (true) {
    while (i < n && s[i] != delimiter && blank(s[i])) ++i;
    const int column = column_at(i);
    std::string_view text;
    if (i < n && s[i] == '"') {
      const std::size_t start = ++i;
      std::string* unescaped = nullptr;  // made at the first doubled quote
      bool closed = false;
      while (i < n) {
        if (s[i] != '"') {
          if (unescaped != nullptr) *unescaped += s[i];
          ++i;
          continue;
        }
        if (i + 1 < n && s[i + 1] == '"') {
          if (unescaped == nullptr) unescaped = &(fields.unescaped() = s.substr(start, i - start));
          *unescaped += '"';
          i += 2;
          continue;
        }
        text = unescaped != nullptr ? std::string_view(*unescaped) : s.substr(start, i - start);
        closed = true;
        ++i;
        break;
      }
      if (!closed) {
        throw kexp::DataError(kexp::SourceLocation{file, line.number, column},
                              "a quoted field is not closed on this line (a field may not span "
                              "lines); close the quote");
      }
      while (i < n && s[i] != delimiter && blank(s[i])) ++i;
      if (i < n && s[i] != delimiter) {
        throw kexp::DataError(
            kexp::SourceLocation{file, line.number, column_at(i)},
            std::string("unexpected text after a closing quote; a field ends with the quote "
                        "and then the delimiter '") +
                delimiter + "'");
      }
    } else {
      const std::size_t start = i;
      while (i < n && s[i] != delimiter) ++i;
      std::size_t end = i;
      while (end > start && blank(s[end - 1])) --end;
      text = s.substr(start, end - start);
    }
    add(text, column);
    if (i >= n) break;
    ++i;  // the delimiter
  }
}

/// The message for a row with a NaN, Inf or missing value under the policy `error`.
inline std::string nonfinite_message(const std::string& what) {
  return what +
         "; fix or remove the row, or set on_nonfinite: drop to leave out the rows that have "
         "one";
}

/// Reports on stderr the rows left out under on_nonfinite: drop.
inline void report_dropped(const char* plugin, const std::string& file,
                           const std::vector<int>& lines, std::size_t total) {
  if (lines.empty()) return;
  std::ostringstream list;
  const std::size_t shown = std::min<std::size_t>(lines.size(), 5);
  for (std::size_t i = 0; i < shown; ++i) list << (i ? ", " : "") << lines[i];
  if (lines.size() > shown) list << ", …";
  std::cerr << "kexp: dataset " << plugin << ": dropped " << lines.size() << " of " << total
            << " rows of " << file << " with a NaN, Inf or missing value (lines " << list.str()
            << "; on_nonfinite: drop)\n";
}

/// Where in its file a label came from, for messages.
struct LabelSource {
  int line = 0;
  int column = 0;
};

/// The two label values of a binary classification set: the smaller becomes −1, the
/// larger +1 (so 0/1, 1/2 and −1/+1 all map to −1/+1).
struct BinaryLabels {
  double negative = -1, positive = 1;
};

/// Finds the two labels of the training set; throws unless there are exactly two.
inline BinaryLabels binary_labels(const std::vector<double>& y, const std::string& file) {
  std::vector<double> values = y;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() != 2) {
    std::ostringstream list;
    const std::size_t shown = std::min<std::size_t>(values.size(), 6);
    for (std::size_t i = 0; i < shown; ++i) list << (i ? ", " : "") << number_text(values[i]);
    if (values.size() > shown) list << ", …";
    throw kexp::DataError(kexp::SourceLocation{file, 0, 0},
                          "task classification needs exactly two distinct labels, found " +
                              std::to_string(values.size()) + " (" + list.str() +
                              "); kexp's classifiers are binary: relabel the data, or use task: "
                              "regression");
  }
  return {values[0], values[1]};
}

/// Maps y, read from `file`, to ±1 in place; a value that is neither label is an error at
/// its source.
inline void map_labels(std::vector<double>& y, const std::vector<LabelSource>& sources,
                       const std::string& file, const BinaryLabels& labels,
                       const std::string& train_file) {
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] == labels.negative) {
      y[i] = -1.0;
    } else if (y[i] == labels.positive) {
      y[i] = 1.0;
    } else {
      const LabelSource& s = sources[i];
      throw kexp::DataError(kexp::SourceLocation{file, s.line, s.column},
                            "label " + number_text(y[i]) + " is not one of the two labels of " +
                                train_file + " (" + number_text(labels.negative) + ", " +
                                number_text(labels.positive) + ")");
    }
  }
}

}  // namespace kexp_datasets
