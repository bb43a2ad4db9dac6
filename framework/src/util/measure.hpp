// What kexp measures of itself and the machine: wall time, the process's peak memory, the
// memory there is.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

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

/// The process's resident memory in bytes now (VmRSS); −1 where it cannot be read.
std::int64_t resident_bytes();

/// Physical memory of the machine, in bytes.
std::int64_t physical_memory_bytes();

/// The machine's 1-minute load average (runnable and waiting processes, getloadavg), or
/// nothing where it cannot be read.
std::optional<double> load_average();

/// Processors online.
int online_cpus();

/// The "model name" of /proc/cpuinfo, or "" where there is none.
std::string cpu_model();

/// The current UTC time, ISO 8601 ("2024-05-01T12:00:00Z").
std::string now_iso8601();

/// A warning when other processes already keep busy the processors a run needs: the
/// 1-minute load average `load` (taken before the run started) leaves fewer than
/// `threads` of `cpus` processors free, less half a processor of slack. Empty otherwise.
std::string busy_machine_warning(double load, int cpus, int threads);

}  // namespace kexp::core
