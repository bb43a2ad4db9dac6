// A child process forked from a fresh thread, leading a process group of its own, its
// messages framed on a pipe (a mark, an 8-byte length, checksums of the bytes and of the
// header, then the bytes), read by the parent with poll() against the deadline together
// with a descriptor of the child's own (pidfd) that says when it has ended, even while a
// process it started still holds the pipe open; its end collected with waitpid(), and its
// process group killed.
#include "util/child_process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <thread>
#include <vector>

#include "util/blas_core.hpp"
#include "util/child_groups.hpp"

namespace kexp::core {

namespace {

/// The exit code of a child whose body threw.
constexpr int kBodyThrew = 125;

/// A message on the pipe: kMark, its length (8 bytes), the FNV-1a checksum of its bytes
/// and that of the 16 bytes before it (4 bytes each, little-endian as the machine), then
/// its bytes. A header checked on its own rejects a stray mark at once, whatever length
/// follows it.
constexpr std::array<char, 4> kMark = {'\x7f', 'K', 'X', '\x01'};
constexpr std::size_t kHeader = kMark.size() + 8 + 4 + 4;
/// A length above this is not a message of kexp's.
constexpr std::uint64_t kLargestMessage = std::uint64_t{1} << 40;

std::uint32_t checksum(const char* data, std::size_t size) {
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 16777619u;
  }
  return h;
}

std::string signal_text(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  return abbrev != nullptr ? fmt::format("SIG{} (signal {})", abbrev, signal)
                           : fmt::format("signal {}", signal);
}

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// --- the child ---

/// Puts /dev/null in the place of every descriptor above the standard streams but
/// `keep`: a plugin's write to "its" descriptor goes nowhere, and the numbers stay taken,
/// so that a file kexp opens later in the child cannot get one of them.
void neutralise_inherited(int keep) {
  const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  std::vector<int> fds;
  if (DIR* dir = ::opendir("/proc/self/fd"); dir != nullptr) {
    const int own = ::dirfd(dir);
    while (const dirent* entry = ::readdir(dir)) {
      const int fd = std::atoi(entry->d_name);
      if (entry->d_name[0] != '.' && fd > 2 && fd != keep && fd != own && fd != null) {
        fds.push_back(fd);
      }
    }
    ::closedir(dir);
  } else {  // no /proc: every number up to the limit
    const long limit = std::min(::sysconf(_SC_OPEN_MAX), 65536L);
    for (int fd = 3; fd < limit; ++fd) {
      if (fd != keep && fd != null && ::fcntl(fd, F_GETFD) != -1) fds.push_back(fd);
    }
  }
  for (const int fd : fds) {
    if (null < 0 || ::dup2(null, fd) < 0) ::close(fd);
  }
  if (null >= 0) ::close(null);
}

/// In the child, on the thread that forked: the parent decides when the work stops.
[[noreturn]] void run_child(int write_fd, pid_t parent,
                            const std::function<void(const ChildChannel&)>& body) {
  ::setpgid(0, 0);  // the parent does so too: whichever runs first
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(kBodyThrew);  // the parent died before the prctl
  neutralise_inherited(write_fd);
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  std::signal(SIGTSTP, SIG_DFL);
  std::signal(SIGCONT, SIG_DFL);
  adopt_blas_threads();  // this thread began with OpenMP's initial count
  int code = 0;
  try {
    body(ChildChannel(write_fd));
  } catch (...) {
    code = kBodyThrew;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(code);
}

// --- the parent's side ---

/// Whole, intact messages off the front of the bytes read so far; anything else skipped
/// and counted.
class Frames {
 public:
  void append(const char* data, std::size_t size) { buffer_.append(data, size); }

  /// Delivers every whole message; false when on_message said stop. With `at_end` (no
  /// more bytes will come), a frame that can no longer be completed is stray.
  bool deliver(const std::function<bool(std::string&&)>& on_message, bool at_end) {
    std::size_t at = 0;
    bool go_on = true;
    while (go_on && at < buffer_.size()) {
      const std::size_t mark = buffer_.find(kMark.data(), at, kMark.size());
      if (mark == std::string::npos) {
        // Keep what could be the start of a mark cut by the read.
        const std::size_t keep = at_end ? 0 : std::min(buffer_.size() - at, kMark.size() - 1);
        stray_ += buffer_.size() - at - keep;
        at = buffer_.size() - keep;
        break;
      }
      stray_ += mark - at;
      at = mark;
      if (buffer_.size() - at < kHeader) {
        if (!at_end) break;
        ++stray_;  // never completed: not a mark after all
        ++at;
        continue;
      }
      const char* header = buffer_.data() + at;
      std::uint64_t size = 0;
      std::uint32_t sum = 0, header_sum = 0;
      std::memcpy(&size, header + kMark.size(), 8);
      std::memcpy(&sum, header + kMark.size() + 8, 4);
      std::memcpy(&header_sum, header + kMark.size() + 12, 4);
      if (checksum(header, kHeader - 4) != header_sum || size > kLargestMessage) {
        ++stray_;
        ++at;
        continue;
      }
      if (buffer_.size() - at - kHeader < size) {
        if (!at_end) break;
        ++stray_;
        ++at;
        continue;
      }
      const char* payload = header + kHeader;
      const auto length = static_cast<std::size_t>(size);
      if (checksum(payload, length) != sum) {
        ++stray_;
        ++at;
        continue;
      }
      go_on = on_message(std::string(payload, length));
      at += kHeader + length;
    }
    buffer_.erase(0, at);
    return go_on;
  }

  [[nodiscard]] std::size_t stray() const { return stray_; }

 private:
  std::string buffer_;
  std::size_t stray_ = 0;
};

ChildEnd collect(pid_t pid, ChildEnd::How forced) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildEnd end;
  if (forced == ChildEnd::How::TimedOut || forced == ChildEnd::How::Stopped) {
    end.how = forced;
  } else if (WIFSIGNALED(status)) {
    end.how = ChildEnd::How::Signaled;
    end.code = WTERMSIG(status);
  } else {
    end.how = ChildEnd::How::Exited;
    end.code = WEXITSTATUS(status);
  }
  return end;
}

/// A descriptor that becomes readable when the process ends, or -1 where the kernel has
/// none (before Linux 5.3): the parent then looks with waitid() between reads.
int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

/// Whether the child has ended, without collecting it.
bool has_ended(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

/// Moves a descriptor that took the place of a closed standard stream above them.
int above_standard_streams(int fd) {
  if (fd > 2) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (moved < 0) return fd;
  ::close(fd);
  return moved;
}

/// In the parent: reads the child's messages until it has ended (or closed the pipe), is
/// stopped or runs out of time; then kills what is left of its process group, reads what
/// was in the pipe by then and collects its end.
ChildEnd supervise(pid_t pid, int read_fd, const std::function<bool(std::string&&)>& on_message,
                   const std::function<double()>& seconds_left) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  ChildEnd::How forced = ChildEnd::How::Exited;
  Frames frames;
  std::exception_ptr thrown;
  char chunk[1 << 16];
  const int pidfd = open_pidfd(pid);
  bool pipe_open = true;
  const auto deliver = [&](bool at_end) {
    if (forced == ChildEnd::How::Stopped || thrown) return;
    try {
      if (!frames.deliver(on_message, at_end)) forced = ChildEnd::How::Stopped;
    } catch (...) {
      thrown = std::current_exception();
      forced = ChildEnd::How::Stopped;
    }
  };
  try {
    for (;;) {
      const double left = seconds_left();
      if (left <= 0) {
        forced = ChildEnd::How::TimedOut;
        break;
      }
      // At most 100 ms between looks at the deadline (it moves as cells start) and, without
      // a pidfd, at the child.
      const int wait_ms = left >= 0.1 ? 100 : std::max(1, static_cast<int>(left * 1000) + 1);
      pollfd p[2];
      nfds_t count = 0;
      if (pipe_open) p[count++] = {read_fd, POLLIN, 0};
      const nfds_t pid_slot = count;
      if (pidfd >= 0) p[count++] = {pidfd, POLLIN, 0};
      const int ready = ::poll(p, count, wait_ms);
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) break;
      if (pipe_open && p[0].revents != 0) {
        const ssize_t n = ::read(read_fd, chunk, sizeof chunk);
        if (n > 0) {
          frames.append(chunk, static_cast<std::size_t>(n));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          pipe_open = false;  // every holder of the pipe's other end has closed it
        }
        deliver(!pipe_open);
        if (forced != ChildEnd::How::Exited) break;
      }
      // Looked at on every pass: a process the child started may keep the pipe busy.
      if ((pidfd >= 0 && p[pid_slot].revents != 0) || (pidfd < 0 && has_ended(pid))) break;
    }
  } catch (...) {  // from seconds_left(), or memory for the bytes: kill and collect first
    thrown = std::current_exception();
    forced = ChildEnd::How::Stopped;
  }
  if (forced != ChildEnd::How::Exited) ::kill(pid, SIGKILL);
  ::kill(-pid, SIGKILL);  // whatever the child started, in its process group
  if (pipe_open) {
    // What was written before the end is in the pipe, as much as FIONREAD says now: a
    // process that left the group may still write, and is not waited for.
    int available = 0;
    if (::ioctl(read_fd, FIONREAD, &available) == 0 && available > 0) {
      ::fcntl(read_fd, F_SETFL, ::fcntl(read_fd, F_GETFL) | O_NONBLOCK);
      auto left = static_cast<std::size_t>(available);
      while (left > 0) {
        const ssize_t n = ::read(read_fd, chunk, std::min(left, sizeof chunk));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        frames.append(chunk, static_cast<std::size_t>(n));
        left -= static_cast<std::size_t>(n);
      }
    }
  }
  deliver(true);
  ChildEnd end = collect(pid, forced);
  if (pidfd >= 0) ::close(pidfd);
  end.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  end.stray_bytes = frames.stray();
  if (thrown) std::rethrow_exception(thrown);
  return end;
}

ChildEnd not_started(int error) {
  ChildEnd end;
  end.how = ChildEnd::How::NotStarted;
  end.why_not_started = std::strerror(error);
  return end;
}

}  // namespace

std::string ChildEnd::describe() const {
  switch (how) {
    case How::Exited:
      return code == kBodyThrew ? std::string("failed in kexp's own code (exit code 125)")
                                : fmt::format("exited with code {}", code);
    case How::Signaled:
      return "was killed by " + signal_text(code);
    case How::TimedOut:
      return fmt::format("did not finish within {:g} s and was killed", seconds);
    case How::Stopped:
      return "was stopped by kexp";
    case How::NotStarted:
      return "could not be started: " + why_not_started;
  }
  return "ended";
}

void ChildChannel::send(std::string_view message) const {
  // One write of header and bytes: a stray write by another thread cannot fall between.
  std::string frame(kHeader, '\0');
  const std::uint64_t size = message.size();
  const std::uint32_t sum = checksum(message.data(), message.size());
  std::memcpy(frame.data(), kMark.data(), kMark.size());
  std::memcpy(frame.data() + kMark.size(), &size, 8);
  std::memcpy(frame.data() + kMark.size() + 8, &sum, 4);
  const std::uint32_t header_sum = checksum(frame.data(), kHeader - 4);
  std::memcpy(frame.data() + kMark.size() + 12, &header_sum, 4);
  frame.append(message);
  if (!write_all(fd_, frame.data(), frame.size())) ::_exit(kBodyThrew);
}

double stopped_seconds() { return child_groups::stopped_seconds(); }

void kill_running_children() { child_groups::signal_groups(SIGKILL); }

ChildEnd run_in_child(const std::function<void(const ChildChannel&)>& body,
                      const std::function<bool(std::string&&)>& on_message,
                      const std::function<double()>& seconds_left) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return not_started(errno);
  // With a standard stream closed, the pipe may have taken its number.
  fds[0] = above_standard_streams(fds[0]);
  fds[1] = above_standard_streams(fds[1]);
  child_groups::install_stop_handlers();
  // Whatever stdio holds would be written twice, once by each process.
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  ChildEnd end;
  std::exception_ptr thrown;
  // The thread that forks also supervises: the child's parent-death signal follows the
  // thread that forked it, which must live as long as the child.
  std::thread forker([&] {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      run_child(fds[1], parent, body);
    }
    const int fork_errno = errno;
    ::close(fds[1]);
    if (pid < 0) {
      end = not_started(fork_errno);
    } else {
      ::setpgid(pid, pid);  // before anything is killed by its group
      const child_groups::TrackedGroup tracked(pid);
      try {
        end = supervise(pid, fds[0], on_message, seconds_left);
      } catch (...) {
        thrown = std::current_exception();
      }
    }
    ::close(fds[0]);
  });
  forker.join();
  if (thrown) std::rethrow_exception(thrown);
  return end;
}

ChildEnd run_in_child(const std::function<void(const ChildChannel&)>& body,
                      const std::function<bool(std::string&&)>& on_message,
                      double timeout_seconds) {
  if (!(timeout_seconds > 0)) {
    return run_in_child(body, on_message, [] { return std::numeric_limits<double>::infinity(); });
  }
  const auto start = std::chrono::steady_clock::now();
  const double stopped_before = stopped_seconds();
  ChildEnd end = run_in_child(body, on_message, [&] {
    return timeout_seconds -
           (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() -
            (stopped_seconds() - stopped_before));
  });
  if (end.how == ChildEnd::How::TimedOut) end.seconds = timeout_seconds;
  return end;
}

}  // namespace kexp::core
