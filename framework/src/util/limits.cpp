// The limits a process runs under: the memory and CPU limits of its cgroup and every
// ancestor in cgroup v1 and v2, its CPU affinity, and the default thread count taken from
// them and from Slurm's variables.
#include "util/limits.hpp"

#include <fmt/format.h>
#include <sched.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <thread>
#include <vector>

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

/// The first word of a file, or "".
std::string first_word(const fs::path& file) {
  std::ifstream in(file);
  std::string word;
  in >> word;
  return word;
}

std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

/// The cgroup of this process in a hierarchy: for v2 the "0::" line; for v1 the line
/// whose controller list holds `controller`.
std::optional<fs::path> own_cgroup(const fs::path& self, const std::string& controller) {
  std::ifstream in(self);
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controller.empty()
            ? (line.rfind("0::", 0) == 0)
            : ("," + controllers + ",").find("," + controller + ",") != std::string::npos) {
      return fs::path(path);
    }
  }
  return std::nullopt;
}

/// The smallest value `read(folder)` gives over a cgroup folder and its ancestors up to
/// the mount (`mount`), with the cgroup path (relative to the mount) that has it.
std::optional<Limit> smallest_up(const fs::path& mount, const fs::path& cgroup,
                                 const std::function<std::optional<double>(const fs::path&)>& read,
                                 const std::string& file_name) {
  std::optional<Limit> best;
  fs::path p = cgroup.lexically_normal();
  for (;;) {
    const fs::path folder = mount / p.relative_path();
    if (const auto v = read(folder); v && (!best || *v < best->value)) {
      best = Limit{*v, fmt::format("{} of cgroup {}", file_name, p.generic_string())};
    }
    if (p == p.root_path() || p.empty() || !p.has_relative_path()) break;
    p = p.parent_path();
  }
  return best;
}

std::optional<double> memory_v2(const fs::path& folder) {
  const auto v = number(first_word(folder / "memory.max"));  // "max": no limit
  return v && *v > 0 ? v : std::nullopt;
}

std::optional<double> memory_v1(const fs::path& folder) {
  const auto v = number(first_word(folder / "memory.limit_in_bytes"));
  // v1 writes a huge number (a page-rounded LLONG_MAX) for no limit.
  return v && *v > 0 && *v < 0x1p60 ? v : std::nullopt;
}

std::optional<double> cpu_v2(const fs::path& folder) {
  std::ifstream in(folder / "cpu.max");
  std::string quota, period;
  if (!(in >> quota >> period) || quota == "max") return std::nullopt;
  const auto q = number(quota), t = number(period);
  return q && t && *q > 0 && *t > 0 ? std::optional<double>(*q / *t) : std::nullopt;
}

std::optional<double> cpu_v1(const fs::path& folder) {
  const auto q = number(first_word(folder / "cpu.cfs_quota_us"));  // -1: no limit
  const auto t = number(first_word(folder / "cpu.cfs_period_us"));
  return q && t && *q > 0 && *t > 0 ? std::optional<double>(*q / *t) : std::nullopt;
}

/// The cgroup v2 mount: the root itself, or root/unified on a hybrid system.
fs::path v2_mount(const fs::path& root) {
  std::error_code ec;
  if (!fs::exists(root / "cgroup.controllers", ec) && fs::exists(root / "unified", ec)) {
    return root / "unified";
  }
  return root;
}

std::optional<Limit> smaller(std::optional<Limit> a, const std::optional<Limit>& b) {
  if (!a || (b && b->value < a->value)) return b;
  return a;
}

}  // namespace

std::optional<Limit> cgroup_memory_limit(const CgroupPaths& paths) {
  std::optional<Limit> best;
  if (const auto v2 = own_cgroup(paths.self, "")) {
    best = smaller(best, smallest_up(v2_mount(paths.root), *v2, memory_v2, "memory.max"));
  }
  if (const auto v1 = own_cgroup(paths.self, "memory")) {
    best =
        smaller(best, smallest_up(paths.root / "memory", *v1, memory_v1, "memory.limit_in_bytes"));
  }
  return best;
}

std::optional<Limit> cgroup_cpu_limit(const CgroupPaths& paths) {
  std::optional<Limit> best;
  if (const auto v2 = own_cgroup(paths.self, "")) {
    best = smaller(best, smallest_up(v2_mount(paths.root), *v2, cpu_v2, "cpu.max"));
  }
  for (const char* mount : {"cpu,cpuacct", "cpu"}) {
    if (const auto v1 = own_cgroup(paths.self, "cpu"); v1 && fs::exists(paths.root / mount)) {
      best = smaller(best, smallest_up(paths.root / mount, *v1, cpu_v1, "cpu.cfs_quota_us"));
      break;
    }
  }
  return best;
}

int affinity_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
}

Limit default_threads(const CgroupPaths& paths) {
  const auto positive = [](const char* name) -> std::optional<int> {
    const char* text = std::getenv(name);
    if (text == nullptr) return std::nullopt;
    const auto v = number(text);
    if (!v || *v < 1 || *v > 1e6 || std::floor(*v) != *v) return std::nullopt;
    return static_cast<int>(*v);
  };
  if (const auto omp = positive("OMP_NUM_THREADS")) return {double(*omp), "OMP_NUM_THREADS"};
  if (const auto slurm = positive("SLURM_CPUS_PER_TASK")) {
    return {double(*slurm), "SLURM_CPUS_PER_TASK"};
  }
  Limit threads{double(std::max(1U, std::thread::hardware_concurrency())), "the machine's cores"};
  if (const int affinity = affinity_cpu_count(); affinity > 0 && affinity < threads.value) {
    threads = {double(affinity), "the CPU affinity mask"};
  }
  if (const auto quota = cgroup_cpu_limit(paths);
      quota && std::ceil(quota->value) < threads.value) {
    threads = {std::max(1.0, std::ceil(quota->value)), quota->source};
  }
  return threads;
}

}  // namespace kexp::core
