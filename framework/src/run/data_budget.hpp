// The memory a run's data takes, stated before any of it is loaded: a dataset that says
// its shape (Dataset::shape) takes 8·n·(d + 1) bytes for X and y, twice that while its
// test part is split off; one that does not, the size of the files its parameters name,
// twice that while it is read. Every repeat of every dataset variant stays in memory
// through the run, so their sum counts in the budget of the run and of each cell.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kexp/dataset.hpp"
#include "kexp/params.hpp"
#include "util/limits.hpp"

namespace kexp::core {

/// What one repeat of a dataset variant takes in memory.
struct DataSize {
  double bytes = 0;                ///< held through the run, prepared
  double peak = 0;                 ///< while it is generated or read, and split
  std::optional<DataShape> shape;  ///< as the plugin states it; nothing: unknown before loading
  std::string what;                ///< how the figure comes about, in words
};

/// The size of one repeat of the data of `dataset`, created with `params`, from what the
/// plugin states (Dataset::shape) or else from the sizes of the regular files that its
/// string parameters name (relative to `context.base_dir`); 0 when neither is known.
DataSize data_size(const Dataset& dataset, const Params& params, const DatasetContext& context);

/// One dataset variant the run loads: its canonical text, its size and its repeats.
struct DataLoad {
  std::string label;
  DataSize size;
  int repeats = 1;
};

/// The most memory the run's data takes at once: every repeat of every variant loaded in
/// order, each held while the next is loaded at its peak.
double data_peak_bytes(const std::vector<DataLoad>& loads);

/// The message of a run refused because its data alone passes `budget`, naming each
/// variant's figure and the fix; nothing when it fits.
std::optional<std::string> data_refusal(const std::vector<DataLoad>& loads, const Limit& budget);

}  // namespace kexp::core
