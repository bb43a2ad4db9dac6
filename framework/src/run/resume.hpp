// --resume: continuing the result folder of an earlier run of the same experiment.
//
// The folder must hold this very experiment (same resolved config, same columns). Its
// rows are reconciled before the run goes on: a run is kept when its row is whole and ok
// in both results.csv and results.jsonl and its cell is in the plan; every other row (a
// failed run, a partial line left by a kill, a row one file has and the other lacks, a
// cell the plan does not have) is dropped, said on stderr, and runs again.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "reporting/input_files.hpp"
#include "reporting/result_folder.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

struct ResumeState {
  std::set<RunKey> done;             ///< the runs kept, skipped by this run
  CsvTable kept;                     ///< results.csv as it will be continued
  std::string kept_jsonl;            ///< results.jsonl as it will be continued
  std::vector<std::string> dropped;  ///< one line per kind of row dropped, for stderr
  std::string first_started;         ///< when the folder's first run started
};

/// What --resume does before the run goes on: `folder` must be a result folder (locked
/// then by this process) of this very experiment (read_resume_state), on the same input
/// files (require_same_inputs) and plugin builds (require_same_plugins, unless
/// `accept_rebuilt`); its finished runs are kept.
ResumeState resume_folder(ResultFolder& folder, const Experiment& experiment, const Plan& plan,
                          const std::vector<std::string>& columns,
                          const std::vector<InputFile>& inputs, bool retry_timeouts,
                          bool accept_rebuilt);

}  // namespace kexp::core
