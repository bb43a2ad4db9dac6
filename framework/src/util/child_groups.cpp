// The process groups of kexp's running children (util/child_groups.hpp).
#include "util/child_groups.hpp"

#include <signal.h>
#include <time.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>

namespace kexp::core::child_groups {

namespace {

constexpr std::size_t kTrackedChildren = 64;
std::array<std::atomic<pid_t>, kTrackedChildren> running_groups{};
std::atomic<std::int64_t> stopped_nanoseconds{0};  // kexp's time stopped, summed
std::atomic<std::int64_t> stopped_at{0};           // when the current stop began, or 0

std::int64_t monotonic_nanoseconds() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

/// SIGTSTP (Ctrl-Z): the children stop with kexp, and the time kexp is stopped is not
/// held against a cell. Async-signal-safe throughout.
void on_stop(int) {
  const int saved = errno;
  stopped_at.store(monotonic_nanoseconds());
  signal_groups(SIGSTOP);
  ::signal(SIGTSTP, SIG_DFL);
  ::raise(SIGTSTP);  // stops here until SIGCONT
  errno = saved;
}

void on_continue(int) {
  const int saved = errno;
  const std::int64_t at = stopped_at.exchange(0);
  if (at > 0) stopped_nanoseconds.fetch_add(monotonic_nanoseconds() - at);
  signal_groups(SIGCONT);
  ::signal(SIGTSTP, on_stop);
  errno = saved;
}

}  // namespace

void signal_groups(int signal) {
  for (auto& g : running_groups) {
    const pid_t pid = g.load();
    if (pid > 0) ::kill(-pid, signal);
  }
}

void install_stop_handlers() {
  static const bool installed = [] {
    // Only where kexp would stop at all: a terminal's SIGTSTP left at its default.
    struct sigaction old {};
    if (::sigaction(SIGTSTP, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) {
      ::signal(SIGTSTP, on_stop);
      ::signal(SIGCONT, on_continue);
    }
    return true;
  }();
  (void)installed;
}

TrackedGroup::TrackedGroup(pid_t pid) {
  for (auto& g : running_groups) {
    pid_t empty = 0;
    if (g.compare_exchange_strong(empty, pid)) {
      slot_ = &g;
      return;
    }
  }
}

TrackedGroup::~TrackedGroup() {
  if (slot_ != nullptr) slot_->store(0);
}

double stopped_seconds() {
  std::int64_t total = stopped_nanoseconds.load();
  if (const std::int64_t at = stopped_at.load(); at > 0) total += monotonic_nanoseconds() - at;
  return static_cast<double>(total) / 1e9;
}

}  // namespace kexp::core::child_groups
