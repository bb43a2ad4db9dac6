// The result folder (docs/design.md, "The result folder"): the one place that knows the
// name of every file in it, creates it (with the one --force guard), and reads it back
// for --resume, `kexp merge` and `kexp report`.
//
//   config.yaml      the resolved config (reporting/resolved_config.hpp)
//   manifest.json    what ran, where and how (reporting/manifest.hpp)
//   results.csv      one row per run (reporting/results_row.hpp), and
//   results.jsonl    the same rows as JSON lines
//   summary.md       tables (reporting/summary.hpp)
//   report.html      the findings, plots, tables and manifest in one page
//                    (reporting/report_html.hpp), with `--html` or `output.html: true`
//   plots/           SVG plots (reporting/plots.hpp)
//   predictions/     <cell>-<repeat>.csv, with `output.predictions: true`
//   kernels/         Gram matrices and their heat maps, with `output.kernel_matrix`
//                    (reporting/kernel_matrix.hpp)
//   .kexp-folder     the mark of a folder kexp made, bound to it by the sha256 of its
//                    config.yaml: --force empties no folder without a mark that binds
//   .kexp-lock       locked by the process that writes the folder (util/file_lock.hpp)
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kexp/solver.hpp"
#include "util/csv.hpp"
#include "util/file_lock.hpp"

namespace kexp::core {

/// (cell, repeat) of a row.
using RunKey = std::pair<std::string, std::string>;

class ResultFolder {
 public:
  explicit ResultFolder(std::filesystem::path dir) : dir_(std::move(dir)) {}

  /// Who creates a folder: the wording of the guard's messages differs.
  enum class Creator { Run, Merge };

  /// Makes `dir` a new result folder holding `config_text` as its config.yaml, marked as
  /// kexp's and locked by this process. A folder already there must be empty, or, with
  /// `force`, a folder kexp made (its mark binds to it: mark_binds) that no other process
  /// is writing, named by a path that is not a symbolic link and has no `.` or `..` in
  /// it; what kexp writes there (kexp_entries) is then deleted, and anything else kept and
  /// named on stderr. Throws ConfigError with the fix (another --out, --resume, --force)
  /// when it cannot.
  static ResultFolder create(const std::filesystem::path& dir, bool force, Creator creator,
                             const std::string& config_text);

  /// The names of what kexp writes into a result folder (but its lock): --force deletes
  /// these and nothing else.
  static const std::set<std::string>& kexp_entries();

  /// Locks an existing folder for writing (resume, report). Throws ConfigError naming the
  /// process that holds it when another does. `what` names the command in the message.
  void lock(const std::string& what);

  /// Whether the folder holds kexp's mark: a folder kexp made, or a copy of one.
  [[nodiscard]] bool is_marked() const;

  /// Whether its mark was written for this folder: it holds the sha256 of the folder's
  /// config.yaml, so that a mark copied on its own into another folder does not count. A
  /// copy of a whole result folder (or a clone of a repository holding one) still binds.
  [[nodiscard]] bool mark_binds() const;

  /// Before rewriting what a run wrote (`kexp report`): throws ConfigError, having
  /// created nothing, unless the folder is one kexp made (it holds the mark), holds
  /// results.csv, and none of summary.md, report.html, plots/ is a symbolic link (kexp never writes
  /// through one, into a folder it did not make). `what` names the command.
  void require_rewritable(const std::string& what) const;

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  [[nodiscard]] std::filesystem::path config_file() const { return dir_ / "config.yaml"; }
  [[nodiscard]] std::filesystem::path manifest_file() const { return dir_ / "manifest.json"; }
  [[nodiscard]] std::filesystem::path results_csv() const { return dir_ / "results.csv"; }
  [[nodiscard]] std::filesystem::path results_jsonl() const { return dir_ / "results.jsonl"; }
  [[nodiscard]] std::filesystem::path summary_file() const { return dir_ / "summary.md"; }
  [[nodiscard]] std::filesystem::path html_file() const { return dir_ / "report.html"; }
  [[nodiscard]] std::filesystem::path plots_dir() const { return dir_ / "plots"; }
  [[nodiscard]] std::filesystem::path predictions_dir() const { return dir_ / "predictions"; }
  [[nodiscard]] std::filesystem::path kernels_dir() const { return dir_ / "kernels"; }
  [[nodiscard]] std::filesystem::path mark_file() const { return dir_ / ".kexp-folder"; }
  [[nodiscard]] std::filesystem::path lock_file() const { return dir_ / ".kexp-lock"; }
  /// predictions/<cell>-<repeat>.csv
  [[nodiscard]] std::filesystem::path prediction_file(const std::string& cell,
                                                      const std::string& repeat) const;

  /// config.yaml. Throws ConfigError when the folder has none (not a result folder).
  [[nodiscard]] YAML::Node read_config() const;

  /// results.csv, keeping only complete rows: a run that was killed may have left a
  /// partial last line. Throws ConfigError when there is none.
  [[nodiscard]] CsvTable read_results() const;

  /// The lines of results.jsonl whose run is in `keep` with the status given there,
  /// once each (the first) and whole (a killed run may leave a partial last line).
  [[nodiscard]] std::string filter_jsonl(const std::map<RunKey, std::string>& keep) const;

 private:
  std::filesystem::path dir_;
  std::shared_ptr<FileLock> lock_;
};

/// Checks a path a result folder is named by: no control characters (a NUL byte among
/// them) and valid UTF-8. Throws ConfigError naming `what` ("--out", "output.dir").
void check_folder_path(const std::filesystem::path& dir, const std::string& what);

/// Takes away what a run made of `dir` when it failed before its first row: the folder
/// itself unless it `existed` (empty, or emptied by --force), then only its contents.
void remove_unstarted_folder(const std::filesystem::path& dir, bool existed);

/// The text of a predictions file: `index,y_true,y_pred`, and `var_f,var_y` (without and
/// with the noise term) from a solver with a predictive variance; for `classification`,
/// `y_pred` is the class (±1; a score of 0 is +1) and `decision` the score it is the sign
/// of. `index` is the row in the test set.
std::string predictions_csv(const arma::vec& y_test, const Prediction& prediction,
                            bool classification = false);

/// (cell, repeat) of a row of a results table.
RunKey run_key(const CsvTable& table, const std::vector<std::string>& row);

/// The runs of the table whose status is ok.
std::set<RunKey> finished_runs(const CsvTable& table);

}  // namespace kexp::core
