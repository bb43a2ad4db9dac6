// The rows of results.csv and results.jsonl (docs/design.md, "The result folder"): the
// fixed columns, then one per parameter (dataset.<p>, kernel.<p>, solver.<p>), then one
// per metric a solver declares. A row is one run: a cell and a repeat.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/cell_result.hpp"
#include "reporting/writer.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// The columns every results.csv starts with, in order.
const std::vector<std::string>& fixed_columns();

/// The timing columns of fitting a kernel that learns (kernel_fit_seconds, …), present
/// when the plan has such a kernel.
const std::vector<std::string>& kernel_fit_columns();

/// Every column of a plan's results.csv: fixed, kernel fit (when a kernel learns),
/// validation (when the experiment validates), parameters, metrics.
std::vector<std::string> result_columns(const Plan& plan);

/// The row of one run: the cell's identity and parameters from the plan, and what the
/// run measured.
Row result_row(const Plan& plan, const Cell& cell, int repeat, std::uint64_t seed,
               const CellResult& result);

/// "ok", "failed", "refused" or "timeout".
const char* to_string(CellResult::Status status);

}  // namespace kexp::core
