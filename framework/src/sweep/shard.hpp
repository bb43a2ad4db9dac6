// Shards: a deterministic share of a plan's cells, so that a sweep can run as N
// independent jobs (a Slurm job array) whose result folders `kexp merge` joins.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sweep/plan.hpp"

namespace kexp::core {

/// Shard `index` of `count`, 0-based: 0/4, 1/4, 2/4, 3/4.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
  [[nodiscard]] std::string str() const;
};

/// Parses "I/N" with 0 ≤ I < N. Throws ConfigError.
Shard parse_shard(const std::string& text);

/// The shard of a Slurm array task: SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN (0 when
/// unset) of SLURM_ARRAY_TASK_COUNT, or nothing when the two are not both set.
std::optional<Shard> shard_from_environment();

/// Whether each cell of the plan belongs to the shard. The cells that share a dataset
/// and kernel variant (they share a Gram or feature matrix, and primal-dual pairs are
/// among them) form a group; groups are dealt round-robin in plan order. When there are
/// fewer groups than shards, single cells are dealt round-robin instead, so that no
/// shard is left idle.
std::vector<bool> cells_of_shard(const Plan& plan, const Shard& shard);

}  // namespace kexp::core
