// The result folder a run writes to: the one --resume names, --out, the experiment's
// output.dir, or results/<experiment name>, with `-shard-I-of-N` for a shard's default.
#pragma once

#include "config/experiment.hpp"
#include "reporting/result_folder.hpp"
#include "run/runner.hpp"

namespace kexp::core {

/// The folder of a run of `e` with `options`, its path checked (check_folder_path, named by
/// where it came from: "--out", "--resume", "output.dir" or "the experiment name").
[[nodiscard]] ResultFolder run_folder(const Experiment& e, const RunOptions& options);

}  // namespace kexp::core
