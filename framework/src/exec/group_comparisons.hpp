// A finished cell of a group against the cells the group finished before it, while their
// test predictions are in memory (exec/group.cpp): its counterpart in the other form, and
// the same solver entry in float64; group_cells (exec/group.hpp), which orders a group so
// that the float64 cells come first, is here with them.
#pragma once

#include <armadillo>
#include <string>
#include <utility>
#include <vector>

#include "exec/cell_result.hpp"
#include "exec/group.hpp"
#include "kexp/kernel.hpp"

namespace kexp::core {

/// The test predictions of a group's finished cells, in run order.
using FinishedPredictions = std::vector<std::pair<const GroupCell*, arma::vec>>;

/// Whether a solver runs in float64: its target's precision is double.
bool in_double(const Variant& solver);

/// The largest difference between this cell's predictions and those of its earlier
/// counterpart in the other form (the first one, in run order); a kernel with an exact map
/// fails the pair when it is beyond rounding (exec/exact_map_check.hpp).
void pair_with_earlier(const GroupCell& g, const FinishedPredictions& earlier, const Kernel& kernel,
                       const std::string& kernel_name, CellResult& result);

/// For a cell whose solver ran in precision single or mixed: the largest difference between
/// its predictions and those of the cell of the same solver entry with the same parameters
/// in precision double (which group_cells runs first).
void compare_with_double(const GroupCell& g, const FinishedPredictions& earlier,
                         CellResult& result);

}  // namespace kexp::core
