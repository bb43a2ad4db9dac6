// Running a piece of work in a child process that may crash, exit or hang without taking
// kexp with it: plugin libraries probed before kexp loads them, groups of cells run apart
// from the runner. The child is a fork of this process that sends messages back through
// a pipe; the parent reads them as they come, waits for the child to end and says how it
// ended: its exit code, the signal that killed it, or a timeout after which it was killed.
//
// The fork is made from a thread of its own that has never run an OpenMP region: GNU
// libgomp keeps its pool of threads per thread that started a region, and a child forked
// from such a thread waits forever for pool threads that the fork did not copy. The child
// runs on that fresh thread, so its first parallel region starts a pool of its own.
// OpenBLAS's pthreads build re-creates its threads after a fork itself; its OpenMP build
// runs on the calling thread's OpenMP count, which on a fresh thread is OpenMP's initial
// one, so the child first gives that thread BLAS's count (adopt_blas_threads). The same
// thread then supervises the child, since a child's parent-death signal follows the
// thread that forked it. The child ignores SIGINT and SIGTERM (the parent decides when it
// stops) and is killed when the parent dies.
//
// What a plugin running in the child may do to its process does not reach the parent's
// results: the child puts /dev/null in the place of every descriptor it inherited but the
// standard streams and its end of the pipe (a result file of the parent's, written through
// an inherited descriptor, would be corrupted), each message is written whole with a
// mark, its length and checksums of its header and its bytes (stray bytes written to the
// pipe are skipped and counted, never taken for a message), and the child leads a process
// group of its own, which is killed when the child ends, so that a process the plugin
// started cannot hold the pipe open or outlive its child. When kexp is stopped (Ctrl-Z),
// its children stop too, and the time stopped is not held against them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace kexp::core {

/// Whether a child forked while this process has other threads can go on working. Not in
/// a build with GCC 12's AddressSanitizer: its allocator does not take its locks around
/// fork(), so a child can wait forever for a lock that another thread of the parent held
/// at that moment (seen: an OpenMP worker of the child blocked in the allocator). Plugin
/// probes fork before kexp starts threads and are safe in every build; the groups of a run
/// fork from a process with threads, so a sanitizer build runs them in its own process.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kForkWithThreadsIsSafe = false;
#else
inline constexpr bool kForkWithThreadsIsSafe = true;
#endif

/// How a child process ended.
struct ChildEnd {
  enum class How { Exited, Signaled, TimedOut, Stopped, NotStarted };
  How how = How::Exited;
  int code = 0;        ///< the exit code (Exited) or the signal's number (Signaled)
  double seconds = 0;  ///< from the fork to the end

  /// Exited with code 0.
  [[nodiscard]] bool clean() const { return how == How::Exited && code == 0; }
  /// "exited with code 3", "was killed by SIGSEGV (signal 11)", "did not finish within
  /// 10 s and was killed", "was stopped by kexp", "could not be started: <why>".
  [[nodiscard]] std::string describe() const;
  std::string why_not_started;  ///< NotStarted: the error of fork() or pipe()
  /// Bytes the child wrote to the pipe that were not part of a whole, intact message (a
  /// plugin writing to descriptors it does not own), skipped.
  std::size_t stray_bytes = 0;
};

/// The child's end of the pipe: whole messages, each read by the parent in one piece.
class ChildChannel {
 public:
  explicit ChildChannel(int fd) : fd_(fd) {}
  /// Sends one message. A parent that is gone ends the child (_exit).
  void send(std::string_view message) const;

 private:
  int fd_;
};

/// Runs `body` in a child process and returns how the child ended. The child ends with
/// _exit(0) when `body` returns (no static destructor, no atexit handler of this process
/// runs twice) and _exit(125) when it throws. In the parent, `on_message` is called with
/// each message the child sent, in order, as it comes, on the supervising thread (one call
/// at a time; what it throws kills the child and is rethrown here); when it returns false the child
/// is killed (How::Stopped). `timeout_seconds` > 0: the child is killed when it has not ended by
/// then (How::TimedOut).
ChildEnd run_in_child(const std::function<void(const ChildChannel&)>& body,
                      const std::function<bool(std::string&& message)>& on_message,
                      double timeout_seconds);

/// The same, with a deadline that moves: `seconds_left` is asked after each message and at
/// least every 100 ms; when it returns a value <= 0 the child is killed (How::TimedOut,
/// `seconds` from the fork), and the messages it sent before are still delivered. It
/// returns +infinity while there is no deadline. Used for a limit per cell, which starts
/// when the cell does; subtract stopped_seconds() from the time elapsed.
ChildEnd run_in_child(const std::function<void(const ChildChannel&)>& body,
                      const std::function<bool(std::string&& message)>& on_message,
                      const std::function<double()>& seconds_left);

/// The seconds this process has spent stopped (SIGTSTP to SIGCONT) since it began: time a
/// deadline should not count.
double stopped_seconds();

/// Kills the process groups of every child running now (kexp leaving at once).
void kill_running_children();

}  // namespace kexp::core
