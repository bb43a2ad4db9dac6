// An advisory lock on a file, held for as long as the object lives. It is an open file
// description lock (Linux fcntl F_OFD_SETLK): the kernel releases it when the process
// ends, however it ends, so a lock is never left stale, and a second lock on the same
// file conflicts even within one process. The holder writes its process id into the
// file, so that the one refused can name it.
#pragma once

#include <filesystem>
#include <optional>

namespace kexp::core {

class FileLock {
 public:
  /// Locks `file` (created if missing) for writing without waiting. Returns nothing when
  /// another process holds it, with that process's id in `holder` (0 when unknown).
  /// Throws kexp::Error when the file cannot be opened.
  static std::optional<FileLock> try_lock(const std::filesystem::path& file, long& holder);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace kexp::core
