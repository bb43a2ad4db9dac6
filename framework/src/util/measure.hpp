// What kexp measures of itself and the machine: wall time, the process's peak memory, the
// memory there is.
#pragma once

#include <chrono>
#include <cstdint>

namespace kexp::core {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// Resets the kernel's record of this process's peak resident memory to the current
/// resident size (Linux: /proc/self/clear_refs); false where that is not possible.
bool reset_peak_rss();

/// The process's peak resident memory in bytes since start or the last reset (VmHWM).
std::int64_t peak_rss_bytes();

/// Physical memory of the machine, in bytes.
std::int64_t physical_memory_bytes();

}  // namespace kexp::core
