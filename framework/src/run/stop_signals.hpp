// SIGINT and SIGTERM during a run. The first signal asks the run to stop: it starts no
// further cell, lets the running one finish for at most a grace period, then writes the
// manifest (marked stopped, with its counts) and the summary of what finished, and exits
// with 128 + the signal's number. When the running cell has not finished within the
// grace period, or a second signal comes, the cell is abandoned: the folder is written
// as it stands (every row in it is whole) and the process exits at once. `--resume`
// continues either way.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace kexp::core {

class StopSignals {
 public:
  /// Installs the handlers and starts the thread that watches for signals. `abandon` is
  /// called on that thread when the running cell is to be abandoned; it must leave the
  /// folder consistent and end the process (it does not return to the watcher).
  StopSignals(double grace_seconds, std::function<void(int signal)> abandon);
  /// Restores the previous handlers and stops the watcher.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The signal that asked to stop, or 0.
  [[nodiscard]] int requested() const;

 private:
  void watch();

  double grace_seconds_;
  std::function<void(int)> abandon_;
  std::thread watcher_;
};

/// "SIGINT", "SIGTERM", or "signal N".
const char* signal_name(int signal);

}  // namespace kexp::core
