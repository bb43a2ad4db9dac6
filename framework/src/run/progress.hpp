// The progress line of a run: "12/40 runs, 1 failed, 3s elapsed, ETA 10s" on stderr,
// rewritten in place, only when stderr is a terminal.
#pragma once

#include <cstddef>
#include <string>

#include "util/measure.hpp"

namespace kexp::core {

class Progress {
 public:
  /// `quiet`: never show it.
  Progress(std::size_t total, bool quiet);

  /// After each run: how many have finished so far and how many of them failed.
  void update(std::size_t finished, std::size_t failed);

  /// Prints a message on a line of its own, ending the progress line first.
  void message(const std::string& text);

  /// Ends the progress line, if shown.
  void close();

 private:
  std::size_t total_;
  bool enabled_;
  bool shown_ = false;
  Stopwatch clock_;
};

}  // namespace kexp::core
