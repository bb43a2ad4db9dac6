// SIGINT and SIGTERM during a run: a handler that only records the signal and wakes a
// watcher thread through a pipe; the watcher gives the running cell its grace period and
// abandons it when the period ends or a second signal comes.
#include "run/stop_signals.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <stdexcept>

namespace kexp::core {

namespace {

// What the handler may touch: lock-free atomics and a pipe (async-signal-safe).
std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};
int g_pipe[2] = {-1, -1};
struct sigaction g_previous_int {
}, g_previous_term{};

extern "C" void on_stop_signal(int signal) {
  const int saved = errno;
  int expected = 0;
  g_signal.compare_exchange_strong(expected, signal);
  g_count.fetch_add(1);
  const char byte = 's';
  [[maybe_unused]] const auto n = ::write(g_pipe[1], &byte, 1);
  errno = saved;
}

/// Waits up to `seconds` (forever when negative) for a byte on the pipe; returns it, or
/// 0 on time-out.
char wait_for_byte(double seconds) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds < 0 ? 0 : seconds);
  for (;;) {
    int timeout = -1;
    if (seconds >= 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0) return 0;
      timeout = static_cast<int>(left);
    }
    pollfd p{g_pipe[0], POLLIN, 0};
    const int r = ::poll(&p, 1, timeout);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 0;
    char byte = 0;
    if (::read(g_pipe[0], &byte, 1) == 1) return byte;
  }
}

}  // namespace

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

StopSignals::StopSignals(double grace_seconds, std::function<void(int)> abandon)
    : grace_seconds_(grace_seconds), abandon_(std::move(abandon)) {
  if (::pipe2(g_pipe, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe");
  g_signal = 0;
  g_count = 0;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &g_previous_int);
  ::sigaction(SIGTERM, &action, &g_previous_term);
  watcher_ = std::thread([this] { watch(); });
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &g_previous_int, nullptr);
  ::sigaction(SIGTERM, &g_previous_term, nullptr);
  const char quit = 'q';
  [[maybe_unused]] const auto n = ::write(g_pipe[1], &quit, 1);
  if (watcher_.joinable()) watcher_.join();
  ::close(g_pipe[0]);
  ::close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
}

int StopSignals::requested() const { return g_signal.load(); }

void StopSignals::watch() {
  if (wait_for_byte(-1) != 's') return;  // the run ended with no signal
  const int signal = g_signal.load();
  std::fprintf(stderr,
               "\nkexp: %s: stopping after the running cell (it is abandoned after %.0f s, or at "
               "once on a second signal); --resume continues\n",
               signal_name(signal), grace_seconds_);
  // The run ends by itself ('q'), or the grace period passes, or a second signal comes.
  for (;;) {
    const char byte = wait_for_byte(grace_seconds_);
    if (byte == 'q') return;
    if (byte == 0 || g_count.load() > 1) break;
  }
  abandon_(signal);
}

}  // namespace kexp::core
