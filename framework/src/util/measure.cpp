// What kexp measures of itself and the machine: the peak resident memory (reset between
// cells where Linux allows it), the physical memory, the load average and the online CPUs,
// and the warning when other processes already load the machine.
#include "util/measure.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>

namespace kexp::core {

bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  if (!out) return false;
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

namespace {

/// A "Key:   123 kB" line of /proc/self/status, in bytes; −1 when there is none.
std::int64_t status_bytes(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::size_t length = std::char_traits<char>::length(key);
  while (std::getline(in, line)) {
    if (line.compare(0, length, key) == 0) return std::stoll(line.substr(length)) * 1024;
  }
  return -1;
}

}  // namespace

std::int64_t peak_rss_bytes() { return status_bytes("VmHWM:"); }

std::int64_t resident_bytes() { return status_bytes("VmRSS:"); }

std::int64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? static_cast<std::int64_t>(pages) * size : -1;
}

std::optional<double> load_average() {
  double load[1] = {0};
  if (getloadavg(load, 1) != 1) return std::nullopt;
  return load[0];
}

int online_cpus() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

std::string busy_machine_warning(double load, int cpus, int threads) {
  // The run's threads and the other processes share the processors: L + T runnable
  // threads on C processors run about (L + T) / C times slower than alone once they
  // outnumber them. Past a quarter slower, timings mislead; below it, they are within
  // the spread a run measures anyway.
  const double slowdown = (load + threads) / static_cast<double>(cpus);
  if (slowdown <= 1.25) return {};
  const int fewer = std::max(1, static_cast<int>(std::floor(static_cast<double>(cpus) - load)));
  return fmt::format(
      "the machine is busy: its 1-minute load average is {:.2f} on {} processors before this "
      "run starts, and the run uses {} thread{}; shared, its times may be up to {:.1f}× "
      "slower and noisier than on a quiet machine (manifest.json records the load at start "
      "and end). For times to trust, run when the machine is quiet{}, and compare two runs "
      "with `kexp diff`",
      load, cpus, threads, threads == 1 ? "" : "s", slowdown,
      fewer < threads ? fmt::format(" or on fewer threads (--threads {})", fewer) : "");
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        const auto start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? std::string() : line.substr(start);
      }
    }
  }
  return {};
}

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace kexp::core
