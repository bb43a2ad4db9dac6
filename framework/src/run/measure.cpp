#include "run/measure.hpp"

#include <unistd.h>

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

std::int64_t peak_rss_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return -1;
}

std::int64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? static_cast<std::int64_t>(pages) * size : -1;
}

std::int64_t cgroup_memory_limit_bytes() {
  const auto read_limit = [](const std::string& file) -> std::int64_t {
    std::ifstream in(file);
    std::string text;
    if (!(in >> text) || text == "max") return -1;
    try {
      const long long v = std::stoll(text);
      // cgroup v1 writes a huge number for "no limit"
      return v > 0 && v < (1LL << 60) ? v : -1;
    } catch (const std::exception&) {
      return -1;
    }
  };
  std::ifstream cgroup("/proc/self/cgroup");
  std::string line;
  while (std::getline(cgroup, line)) {
    if (line.rfind("0::", 0) == 0) {  // cgroup v2
      const std::int64_t v = read_limit("/sys/fs/cgroup" + line.substr(3) + "/memory.max");
      if (v > 0) return v;
    }
    const auto memory = line.find(":memory:");
    if (memory != std::string::npos) {  // cgroup v1
      const std::int64_t v =
          read_limit("/sys/fs/cgroup/memory" + line.substr(memory + 8) + "/memory.limit_in_bytes");
      if (v > 0) return v;
    }
  }
  return -1;
}

}  // namespace kexp::core
