// An open file description lock (fcntl F_OFD_SETLK) taken on a file, the holder's process
// id written into it, and the lock released when the object goes.
#include "util/file_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "kexp/error.hpp"

namespace kexp::core {

std::optional<FileLock> FileLock::try_lock(const std::filesystem::path& file, long& holder) {
  holder = 0;
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    throw Error(fmt::format("cannot open {} to lock it: {}", file.string(), std::strerror(errno)));
  }
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  if (::fcntl(fd, F_OFD_SETLK, &lock) == 0) {
    // For people who look: the process that holds it.
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) == 0) {
      [[maybe_unused]] const auto written = ::pwrite(fd, pid.data(), pid.size(), 0);
    }
    return FileLock(fd);
  }
  // The holder wrote its process id into the file once it had the lock.
  char text[32] = {};
  if (::pread(fd, text, sizeof text - 1, 0) > 0) holder = std::strtol(text, nullptr, 10);
  ::close(fd);
  return std::nullopt;
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace kexp::core
