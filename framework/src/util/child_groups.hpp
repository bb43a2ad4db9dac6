// The process groups of kexp's running children (util/child_process.hpp), private to it:
// each child's group is tracked while it runs, so that a stop of kexp (Ctrl-Z, SIGTSTP)
// stops them with it and its end kills them, and the time kexp spends stopped is counted.
#pragma once

#include <sys/types.h>

#include <atomic>

namespace kexp::core::child_groups {

/// Makes SIGTSTP stop the running children with kexp and SIGCONT continue them, once, where
/// kexp would stop at all (a terminal's SIGTSTP left at its default).
void install_stop_handlers();

/// Sends `signal` to every running child's process group. Async-signal-safe.
void signal_groups(int signal);

/// The seconds this process has spent stopped since it began.
double stopped_seconds();

/// Keeps `pid`'s group among the running ones while it lives.
class TrackedGroup {
 public:
  explicit TrackedGroup(pid_t pid);
  ~TrackedGroup();
  TrackedGroup(const TrackedGroup&) = delete;
  TrackedGroup& operator=(const TrackedGroup&) = delete;

 private:
  std::atomic<pid_t>* slot_ = nullptr;
};

}  // namespace kexp::core::child_groups
