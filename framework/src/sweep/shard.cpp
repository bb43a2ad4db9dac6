// Shards: `--shard I/N` or Slurm's array variables read, and a plan's cells dealt to the
// shards group by group (or cell by cell when there are fewer groups than shards).
#include "sweep/shard.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <utility>

#include "kexp/error.hpp"

namespace kexp::core {

std::string Shard::str() const { return fmt::format("{}/{}", index, count); }

namespace {

bool parse_count(const std::string& text, std::size_t& out) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  out = static_cast<std::size_t>(std::stoul(text));
  return true;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parse_count(text.substr(0, slash), s.index) ||
      !parse_count(text.substr(slash + 1), s.count) || s.count == 0 || s.index >= s.count) {
    throw ConfigError(fmt::format(
        "--shard '{}' must be I/N with 0 ≤ I < N, e.g. 0/4 … 3/4 for four shards", text));
  }
  return s;
}

std::optional<Shard> shard_from_environment() {
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
  if (id == nullptr || count == nullptr) return std::nullopt;
  const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
  std::size_t i = 0, n = 0, lo = 0;
  if (!parse_count(id, i) || !parse_count(count, n) || (min != nullptr && !parse_count(min, lo)) ||
      i < lo || n == 0 || i - lo >= n) {
    throw ConfigError(fmt::format(
        "SLURM_ARRAY_TASK_ID={} with SLURM_ARRAY_TASK_MIN={} and SLURM_ARRAY_TASK_COUNT={} do "
        "not give a shard: use a contiguous array such as --array=0-{}",
        id, min != nullptr ? min : "(unset)", count, n > 0 ? n - 1 : 0));
  }
  return Shard{i - lo, n};
}

std::vector<bool> cells_of_shard(const Plan& plan, const Shard& shard) {
  std::vector<bool> mine(plan.cells.size(), false);
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> group_of;
  for (const Cell& c : plan.cells) {
    group_of.emplace(std::make_pair(c.dataset, c.kernel), group_of.size());
  }
  const bool by_group = group_of.size() >= shard.count;
  for (const Cell& c : plan.cells) {
    const std::size_t unit = by_group ? group_of.at({c.dataset, c.kernel}) : c.index;
    mine[c.index] = unit % shard.count == shard.index;
  }
  return mine;
}

}  // namespace kexp::core
