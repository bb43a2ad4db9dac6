// Reading a data file named in a config into memory, and the lines of its text: what the
// file datasets (csv, libsvm, sequences) and the model file of the HMM kernels
// (common/hmm_file.hpp) share.
//
// Every problem is a kexp::DataError that names the file and, where it applies, the line,
// and says how to fix it.
//
// A data file is read only when it is a regular file (a symbolic link to one is fine) of at
// most `max_file_bytes`; a device, a named pipe or a socket is refused before anything is
// read from it, so that /dev/zero cannot fill the memory and a FIFO cannot block. The
// parsing works on the text of a file in memory (TextFile), so that it can be tested and
// fuzzed without files.
#pragma once

#include <kexp/kexp.hpp>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
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

/// The bound on the size of a data file, declared alike by csv, libsvm and sequences.
constexpr kexp::ParamSpec kMaxFileBytesParam =
    kexp::param::integer("max_file_bytes", "1073741824",
                         "largest data file read, in bytes (default 1 GiB); a larger file is "
                         "refused")
        .at_least(1);

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
std::string named_by(const TextFile& file);

/// "1073741824 bytes (1 GiB)".
std::string byte_count(std::uint64_t bytes);

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
std::vector<Stretch> stretches(const TextFile& file, LineReader::Mark from, std::size_t bytes);

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
TextFile text_file(std::string name, std::string key, std::string given,
                   std::shared_ptr<const char> storage, std::size_t size);

/// A TextFile of a copy of `text` (see above).
TextFile text_file(std::string name, std::string key, std::string given, std::string_view text);

/// `path` resolved against the config's folder, as docs/design.md asks of every file a config
/// names.
fs::path resolve(const kexp::DatasetContext& context, const std::string& path);

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
std::size_t read_parts(int fd, char* text, std::size_t size, std::size_t part_bytes, int& error);

/// Reads the file given by parameter `key` (the text `given`, resolved to `path`). Throws
/// DataError if the file is missing, not a regular file, larger than `max_bytes`,
/// unreadable or has no non-blank line.
TextFile read_text_file(const fs::path& path, const std::string& key, const std::string& given,
                        std::uint64_t max_bytes, const ReadInParts& parts = {});

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

}  // namespace kexp_datasets
