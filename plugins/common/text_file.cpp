// Reading a data file into memory (common/text_file.hpp).
#include "common/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kexp_datasets {

namespace {

/// A buffer of `bytes` bytes, not cleared, backed by transparent huge pages where the
/// machine has them: a file of a hundred megabytes is then read with hundreds of page faults
/// instead of tens of thousands.
std::unique_ptr<char[]> text_buffer(std::size_t bytes) {
  std::unique_ptr<char[]> buffer(new char[bytes]);  // NOLINT(*-avoid-c-arrays)
  kexp::advise_huge_pages(buffer.get(), bytes);
  return buffer;
}

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISSOCK(mode)) return "a socket";
  return "of another kind";
}

}  // namespace

std::string named_by(const TextFile& file) { return "(" + file.key + ": " + file.given + ")"; }

std::string byte_count(std::uint64_t bytes) {
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

std::vector<Stretch> stretches(const TextFile& file, LineReader::Mark from, std::size_t bytes) {
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

TextFile text_file(std::string name, std::string key, std::string given,
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

TextFile text_file(std::string name, std::string key, std::string given, std::string_view text) {
  auto copy = std::make_shared<const std::string>(text);
  std::shared_ptr<const char> storage(copy, copy->data());
  return text_file(std::move(name), std::move(key), std::move(given), std::move(storage),
                   text.size());
}

fs::path resolve(const kexp::DatasetContext& context, const std::string& path) {
  fs::path p(path);
  if (p.is_relative() && !context.base_dir.empty()) p = context.base_dir / p;
  return p.lexically_normal();
}

std::size_t read_parts(int fd, char* text, std::size_t size, std::size_t part_bytes, int& error) {
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

TextFile read_text_file(const fs::path& path, const std::string& key, const std::string& given,
                        std::uint64_t max_bytes, const ReadInParts& parts) {
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
  // Text never holds a NUL byte; UTF-16 holds one beside every ASCII character. Said here,
  // with its place, before a field that holds one is cut short at it in a message.
  if (const void* nul = std::memchr(text.get(), '\0', length); nul != nullptr) {
    const auto at = static_cast<std::size_t>(static_cast<const char*>(nul) - text.get());
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < at; ++i) {
      if (text[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    const bool utf16 = length >= 2 && ((static_cast<unsigned char>(text[0]) == 0xff &&
                                        static_cast<unsigned char>(text[1]) == 0xfe) ||
                                       (static_cast<unsigned char>(text[0]) == 0xfe &&
                                        static_cast<unsigned char>(text[1]) == 0xff));
    throw kexp::DataError(
        kexp::SourceLocation{name, line, static_cast<int>(at - line_start + 1)},
        std::string("holds a NUL byte, which text never holds: ") +
            (utf16 ? "the file is UTF-16 text (it begins with UTF-16's byte-order mark)"
                   : "the file is binary, or UTF-16 text, which puts a NUL byte beside every "
                     "ASCII character") +
            "; save it as UTF-8 text (\"CSV UTF-8\" in a spreadsheet program) " + named);
  }
  return text_file(name, key, given,
                   std::shared_ptr<const char>(
                       text.release(), std::default_delete<char[]>()),  // NOLINT(*-avoid-c-arrays)
                   length);
}

}  // namespace kexp_datasets
