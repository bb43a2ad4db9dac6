// A child process forked from a fresh thread, its messages framed on a pipe (a 4-byte
// length, then the bytes), read by the parent with poll() against the timeout, and its
// end collected with waitpid().
#include "util/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <thread>

#include "util/blas_core.hpp"

namespace kexp::core {

namespace {

/// The exit code of a child whose body threw.
constexpr int kBodyThrew = 125;

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

/// In the child, on the thread that forked: the parent decides when the work stops.
[[noreturn]] void run_child(int write_fd, pid_t parent,
                            const std::function<void(const ChildChannel&)>& body) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(kBodyThrew);  // the parent died before the prctl
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
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

/// Takes the whole messages off the front of `buffer`; false when on_message said stop.
bool deliver(std::string& buffer, const std::function<bool(std::string&&)>& on_message) {
  std::size_t at = 0;
  bool go_on = true;
  while (go_on && buffer.size() - at >= 4) {
    std::uint32_t size = 0;
    std::memcpy(&size, buffer.data() + at, 4);
    if (buffer.size() - at - 4 < size) break;
    go_on = on_message(buffer.substr(at + 4, size));
    at += 4 + size;
  }
  buffer.erase(0, at);
  return go_on;
}

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
  const auto size = static_cast<std::uint32_t>(message.size());
  char header[4];
  std::memcpy(header, &size, 4);
  if (!write_all(fd_, header, 4) || !write_all(fd_, message.data(), message.size())) {
    ::_exit(kBodyThrew);
  }
}

namespace {

/// In the parent: reads the child's messages until it closes the pipe, is stopped or runs
/// out of time, then collects its end.
ChildEnd supervise(pid_t pid, int read_fd, const std::function<bool(std::string&&)>& on_message,
                   double timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  ChildEnd::How forced = ChildEnd::How::Exited;
  std::string buffer;
  std::exception_ptr thrown;
  char chunk[1 << 16];
  for (;;) {
    int wait_ms = -1;
    if (timeout_seconds > 0) {
      const double left =
          timeout_seconds - std::chrono::duration<double>(Clock::now() - start).count();
      if (left <= 0) {
        forced = ChildEnd::How::TimedOut;
        break;
      }
      wait_ms = static_cast<int>(left * 1000) + 1;
    }
    pollfd p{read_fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline is checked above
    const ssize_t n = ::read(read_fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the child closed its end: it has ended
    buffer.append(chunk, static_cast<std::size_t>(n));
    bool go_on = false;
    try {
      go_on = deliver(buffer, on_message);
    } catch (...) {
      thrown = std::current_exception();
    }
    if (!go_on) {
      forced = ChildEnd::How::Stopped;
      break;
    }
  }
  if (forced != ChildEnd::How::Exited) ::kill(pid, SIGKILL);
  ChildEnd end = collect(pid, forced);
  end.seconds = forced == ChildEnd::How::TimedOut
                    ? timeout_seconds
                    : std::chrono::duration<double>(Clock::now() - start).count();
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

ChildEnd run_in_child(const std::function<void(const ChildChannel&)>& body,
                      const std::function<bool(std::string&&)>& on_message,
                      double timeout_seconds) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return not_started(errno);
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
      try {
        end = supervise(pid, fds[0], on_message, timeout_seconds);
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

}  // namespace kexp::core
