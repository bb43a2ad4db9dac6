// The run of an experiment: the plan and its shard, the data of every repeat loaded
// before anything is written, the dry run, then the result folder opened and the groups
// executed one by one (dataset variant, repeat, kernel variant), each cell budgeted at
// its place in its group, each run written as it ends, stopped at a signal or at
// --fail-fast, and the manifest and summary written at the end.
#include "run/runner.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <set>

#include "exec/data.hpp"
#include "exec/group.hpp"
#include "exec/isolated_group.hpp"
#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/memory_budget.hpp"
#include "plugin/plugin_call_trace.hpp"
#include "reporting/input_files.hpp"
#include "reporting/manifest.hpp"
#include "reporting/resolved_config.hpp"
#include "reporting/result_folder.hpp"
#include "reporting/results_row.hpp"
#include "reporting/summary.hpp"
#include "reporting/writer.hpp"
#include "run/admission.hpp"
#include "run/budget.hpp"
#include "run/device_check.hpp"
#include "run/group_setup.hpp"
#include "run/kernel_forms_check.hpp"
#include "run/kernel_matrix_output.hpp"
#include "run/outcome.hpp"
#include "run/plan_warnings.hpp"
#include "run/progress.hpp"
#include "run/rehearsal.hpp"
#include "run/resume.hpp"
#include "run/run_data.hpp"
#include "run/run_folder.hpp"
#include "run/run_manifest.hpp"
#include "run/stop_signals.hpp"
#include "run/task_check.hpp"
#include "run/threads.hpp"
#include "sweep/kernel_resolution.hpp"
#include "sweep/plan.hpp"
#include "util/exit_code.hpp"
#include "util/files.hpp"
#include "util/measure.hpp"
#include "util/seed.hpp"
#include "util/text.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

/// How long the running cell may go on after SIGINT or SIGTERM before it is abandoned.
constexpr double kStopGraceSeconds = 10;

class Run {
 public:
  Run(const Experiment& e, const PluginRegistry& registry, const RunOptions& options)
      : e_(e), registry_(registry), options_(options), folder_(run_folder(e, options)) {}

  int run() {
    // A solver that sizes a cache to the budget (svc, svr) reads it from the SDK.
    detail::set_memory_budget(budget_.value);
    // The kernel itself says whether its parameters give it a map; the kernels made to
    // ask are the ones the cells use (one per variant, in order).
    if (options_.isolation && !options_.rehearsal && !uses_only_own_plugins(e_, registry_)) {
      RunOptions rehearsal = options_;
      rehearsal.rehearsal = true;
      rehearsal.dry_run = true;
      rehearsal.quiet = true;
      rehearsal.resume.reset();
      rehearse_plan([&] { (void)Run(e_, registry_, rehearsal).run(); },
                    plan_call_timeout_seconds());
    }
    plan_ = make_plan(e_, registry_, [this](const Variant& v) {
      const PluginCallNote entry(
          fmt::format("for {} ({})", e_.kernels[v.component].key, v.canonical), false);
      kernels_.push_back(create_kernel_of(v));
      const PluginCallNote call(fmt::format("asking kernel '{}' for its feature map", v.name()));
      return kernels_.back()->feature_map() != nullptr;
    });
    threads_ = run_threads(options_.threads, e_.threads, plan_);
    set_thread_count(static_cast<int>(threads_.value));
    hold_blas_threads(static_cast<int>(threads_.value));
    if (threads_.source == kCostStudyThreads) fmt::print(stderr, "kexp: {}\n", threads_.source);
    selected_ = options_.shard ? cells_of_shard(plan_, *options_.shard)
                               : std::vector<bool>(plan_.cells.size(), true);
    for (const Variant& v : plan_.datasets) {
      const PluginCallNote entry(fmt::format("for the dataset ({})", v.canonical), false);
      datasets_.push_back(create_dataset(*v.plugin, v.params));
    }
    columns_ = result_columns(plan_);
    warnings_ = psd_warnings(plan_, selected_, kernels_);
    for (const auto& w : warnings_) fmt::print(stderr, "kexp: warning: {}\n", w);
    device_refusals_ = check_devices(e_, plan_, selected_, kernels_);
    if ((!options_.dry_run || options_.resume) && !options_.rehearsal) {
      inputs_ = input_files(e_);  // by content
    }
    if (options_.resume) {
      resume_ = resume_folder(folder_, e_, plan_, columns_, inputs_, options_.retry_timeouts,
                              options_.accept_rebuilt_plugins);
      done_ = resume_.done;
    }
    // Formed once: the dry run, the budget and the execution read the same groups.
    groups_ =
        form_run_groups(plan_, e_.repeats, [this](const Cell& c, int r) { return to_do(c, r); });
    gram_places_ = demanding_places(plan_, groups_);
    data_ = load_run_data(e_, plan_, selected_, datasets_, budget_, options_.dry_run);
    check_tasks(e_, plan_, selected_, data_);
    check_kernel_forms(e_, plan_, selected_, kernels_, data_);
    kernel_matrices_ = plan_kernel_matrices(
        e_, plan_, [this](const Cell& c, int r) { return to_do(c, r); }, data_.dims);
    for (const auto& note : kernel_matrices_.notes) {
      fmt::print(stderr, "kexp: {}\n", note);
      warnings_.push_back(note);
    }
    if (options_.dry_run) return dry_run();
    check_kernel_matrix_disk(e_, kernel_matrices_, folder_.dir());
    // The load before kexp loaded the machine itself: what the other processes leave.
    if (load_at_start_) {
      const std::string busy =
          busy_machine_warning(*load_at_start_, online_cpus(), static_cast<int>(threads_.value));
      if (!busy.empty()) fmt::print(stderr, "kexp: warning: {}\n", busy);
    }
    for (const auto& l : plan_.left_out) fmt::print(stderr, "kexp: {}\n", l);
    open_output();
    execute();
    {
      const std::lock_guard<std::mutex> lock(io_);
      finish();
    }
    signals_.reset();
    if (!stop_reason_.empty()) return stop_signal_ > 0 ? 128 + stop_signal_ : kExitIncomplete;
    return outcome_.failed > 0 ? kExitCellsFailed : kExitOk;
  }

 private:
  [[nodiscard]] bool is_done(const Cell& c, int r) const {
    return done_.count({c.id, std::to_string(r)}) > 0;
  }

  /// Whether this run runs repeat `r` of `c`: selected by the shard, not done before.
  [[nodiscard]] bool to_do(const Cell& c, int r) const {
    return selected_[c.index] && !is_done(c, r);
  }

  /// The progress line's weight of one run of `c` (run/progress.hpp), worked out once per
  /// cell; a cell refused before it runs takes no time.
  double run_cost_of(const Cell& c) {
    double& cost = cost_[c.index];
    if (std::isnan(cost)) {
      cost = admission_.refusal_before_start(c, estimate(c), admission_.time_estimate(c))
                 ? 0
                 : run_cost(c.form, data_.dims[c.dataset], *kernels_[c.kernel]);
    }
    return cost;
  }

  [[nodiscard]] MemoryEstimate estimate(const Cell& c) const { return admission_.estimate(c); }

  int dry_run() {
    const std::vector<DryRunLine> lines = admission_.dry_run_lines(
        selected_, e_.repeats, [this](const Cell& c, int r) { return is_done(c, r); });
    print_dry_run(plan_, lines, e_.repeats, budget_,
                  {options_.max_cell_seconds, admission_.rate().source},
                  options_.shard ? options_.shard->str() : std::string(), folder_.dir().string());
    if (kernel_matrices_.files > 0) {
      fmt::print("output.kernel_matrix: {}, {} on disk in {}/kernels\n",
                 count_of(kernel_matrices_.files, "file"), size_text(kernel_matrices_.bytes),
                 folder_.dir().string());
    }
    return kExitOk;
  }

  void open_output() {
    if (options_.resume) {
      for (const auto& line : resume_.dropped) fmt::print(stderr, "kexp: --resume: {}\n", line);
      write_file_atomically(folder_.results_csv(), csv_text(resume_.kept));
      write_file_atomically(folder_.results_jsonl(), resume_.kept_jsonl);
      start_tables();
      return;
    }
    // A folder that fails before its first row (a full disk while config.yaml is written)
    // is taken away again: left half-made, --resume would not know it and a rerun would
    // refuse it. What it holds then is only what this run wrote.
    const fs::path dir = folder_.dir();
    std::error_code ec;
    const bool existed = fs::exists(dir, ec);
    bool ours = !existed || fs::is_empty(dir, ec);
    try {
      folder_ = ResultFolder::create(dir, options_.force, ResultFolder::Creator::Run,
                                     resolved_config(e_, plan_, dir));
      ours = true;
      start_tables();
    } catch (...) {
      if (ours) remove_unstarted_folder(dir, existed);
      throw;
    }
  }

  /// Writes the first manifest and begins the tables (a resumed run's after their rows).
  void start_tables() {
    if (e_.output.predictions) fs::create_directories(folder_.predictions_dir());
    manifest_ = initial_manifest();
    write_manifest(folder_.manifest_file(), manifest_.to_json());
    writers_.add(std::make_unique<CsvWriter>(folder_.results_csv()));
    writers_.add(std::make_unique<JsonlWriter>(folder_.results_jsonl()));
    writers_.begin(columns_, options_.resume.has_value());
  }

  [[nodiscard]] Manifest initial_manifest() const {
    RunFacts facts;
    facts.command_line = options_.command_line;
    facts.shard = options_.shard;
    facts.selected_cells =
        static_cast<std::size_t>(std::count(selected_.begin(), selected_.end(), true));
    if (options_.resume) facts.resumed = Manifest::Resumed{resume_.first_started, done_.size()};
    facts.memory_budget = budget_;
    facts.max_cell_seconds = options_.max_cell_seconds;
    facts.threads = threads_;
    facts.fail_fast = options_.fail_fast;
    facts.load_at_start = load_at_start_;
    facts.inputs = inputs_;
    return run_manifest(e_, plan_, facts);
  }

  /// The groups in order: each cell admitted at its place, then run.
  void execute() {
    cost_.assign(plan_.cells.size(), std::numeric_limits<double>::quiet_NaN());
    double cost_total = 0;
    for (const RunGroup& g : groups_) {
      total_ += g.cells.size();
      for (const GroupCell& gc : g.cells) cost_total += run_cost_of(*gc.cell);
    }
    const auto selected =
        static_cast<std::size_t>(std::count(selected_.begin(), selected_.end(), true));
    outcome_.skipped = static_cast<long>(selected * static_cast<std::size_t>(e_.repeats) - total_);
    progress_ = std::make_unique<Progress>(total_, cost_total, options_.quiet);
    signals_ =
        std::make_unique<StopSignals>(kStopGraceSeconds, [this](int signal) { abandon(signal); });
    GramBuffer gram_buffer;  // K's memory, from one group to the next of the same n
    for (RunGroup& g : groups_) {
      if (stop_) break;
      const std::size_t d = g.dataset;
      const int r = g.repeat;
      const PreparedData& data = data_.data[d][static_cast<std::size_t>(r)];
      admit_group(g, admission_, static_cast<double>(data.X_train.n_cols));
      const std::string kernel_name = plan_.kernels[g.kernel].name();
      const GroupCallbacks callbacks = group_callbacks(g, data, kernel_name);
      const GroupKernel kernel = group_kernel(kernel_name, e_, plan_, kernels_, d, r, g.kernel);
      execute_group(options_.isolation && !needs_own_process(g.cells), g.cells, kernel, data,
                    e_.timing, callbacks, gram_buffer);
      std::vector<GroupCell>().swap(g.cells);  // what admit_group wrote is read no more
    }
    progress_->close();
  }

  /// What the run does as a cell of `g` starts and ends, and with a warning, and the
  /// kernel matrices output.kernel_matrix asks for as the group builds them.
  GroupCallbacks group_callbacks(const RunGroup& g, const PreparedData& data,
                                 const std::string& kernel_name) {
    const int r = g.repeat;
    GroupCallbacks callbacks;
    callbacks.started = [this, &g, &data, kernel_name](const Cell& c) {
      const std::lock_guard<std::mutex> lock(io_);
      running_ = fmt::format("cell {} repeat {}", c.id, g.repeat);
      progress_->started(
          fmt::format("{} n={} | {} | {}{}", plan_.datasets[g.dataset].name(), data.X_train.n_cols,
                      kernel_name, plan_.solvers[c.solver].name(),
                      e_.repeats > 1 ? fmt::format(" (repeat {})", g.repeat) : std::string()));
    };
    callbacks.done = [this, r](const Cell& c, CellResult&& result) {
      return record(c, r, std::move(result));
    };
    callbacks.warning = [this](const std::string& warning) {
      const std::lock_guard<std::mutex> lock(io_);
      warnings_.push_back(warning);
      progress_->message("kexp: warning: " + warning);
    };
    write_kernel_matrices(callbacks, folder_, e_.output.kernel_matrix, r, data, kernel_name,
                          plan_.datasets[g.dataset].name());
    return callbacks;
  }

  /// On the signal watcher's thread: the running cell did not finish in time, or a second
  /// signal came. Rows are written under `io_`, so the folder is whole here.
  void abandon(int signal) {
    const std::lock_guard<std::mutex> lock(io_);
    if (finished_) return;
    progress_->close();
    stop(signal_name(signal), signal);
    abandoned_ = running_;
    finish();
    std::fflush(stdout);
    std::fflush(stderr);
    kill_running_children();  // and what the running cell's plugin started
    std::_Exit(128 + signal);
  }

  void stop(const std::string& reason, int signal) {
    if (stop_reason_.empty()) {
      stop_reason_ = reason;
      stop_signal_ = signal;
    }
    stop_ = true;
  }

  /// Writes a finished run: its predictions file, its row; reports a failure. Returns
  /// whether to go on.
  bool record(const Cell& c, int repeat, CellResult&& result) {
    const std::lock_guard<std::mutex> lock(io_);
    running_.clear();
    if (result.status == CellResult::Status::Ok && e_.output.predictions) {
      try {
        const PreparedData& data = data_.data[c.dataset][static_cast<std::size_t>(repeat)];
        write_file_atomically(
            folder_.prediction_file(c.id, std::to_string(repeat)),
            predictions_csv(data.y_test, result.prediction, data.task == Task::Classification));
      } catch (const std::exception& err) {
        result.status = CellResult::Status::Failed;
        result.error = err.what();
      }
    }
    if (result.status == CellResult::Status::Failed) {
      result.error +=
          out_of_memory_note(result, plan_.datasets[c.dataset].canonical, estimate(c).bytes);
    }
    for (const auto& w : undeclared_metric_warnings(plan_, c, result, warned_metrics_)) {
      progress_->message("kexp: warning: " + w);
    }
    for (const std::string* note : {&result.memory_notes, &result.flops_notes}) {
      if (note->empty()) continue;  // on stderr now, in summary.md at the end
      warnings_.push_back(fmt::format("cell {} (repeat {}): {}", c.id, repeat, *note));
      progress_->message("kexp: warning: " + warnings_.back());
    }
    const std::uint64_t seed =
        derive_seed(e_.seed, "cell:" + c.id, static_cast<std::uint64_t>(repeat));
    try {
      writers_.write(result_row(plan_, c, repeat, seed, result));
    } catch (const Error& err) {
      // Not counted: the run was not recorded, so --resume runs it again.
      progress_->message(fmt::format("kexp: {}; stopping", err.what()));
      stop(err.what(), 0);
      return false;
    }
    if (const char* what = outcome_.tally(result.status)) {
      progress_->message(
          fmt::format("kexp: cell {} (repeat {}) {}: {}", c.id, repeat, what, result.error));
      if (options_.fail_fast) stop_ = true;
    }
    cost_done_ += cost_[c.index];
    progress_->update(static_cast<std::size_t>(outcome_.done + outcome_.failed),
                      static_cast<std::size_t>(outcome_.failed), cost_done_);
    if (const int signal = signals_ ? signals_->requested() : 0) stop(signal_name(signal), signal);
    return !stop_;
  }

  /// Writes the manifest and the summary of what finished, and prints the counts. Called
  /// with `io_` held, once.
  void finish() {
    finished_ = true;
    writers_.end();
    const auto ran = static_cast<std::size_t>(outcome_.done + outcome_.failed);
    outcome_.not_started = total_ > ran ? total_ - ran : 0;
    outcome_.fail_fast_stop = stop_ && stop_reason_.empty();
    outcome_.stop_reason = stop_reason_;
    outcome_.abandoned = abandoned_;
    manifest_.finished = now_iso8601();
    manifest_.load_at_end = load_average();
    manifest_.runs = outcome_.runs();
    manifest_.stopped = outcome_.stop();
    manifest_.notes =
        outcome_.notes(options_.shard ? options_.shard->str() : "", plan_.cells.size(),
                       plan_.left_out, warnings_, folder_.dir().string());
    try {
      write_manifest(folder_.manifest_file(), manifest_.to_json());
      write_report(folder_, manifest_.notes);
    } catch (const Error& err) {
      fmt::print(stderr, "kexp: {}; the rows in {} are whole, `--resume` continues\n", err.what(),
                 folder_.results_csv().string());
      stop(err.what(), stop_signal_);
    }
    fmt::print("{}\n", outcome_.counts(folder_.dir().string()));
  }

  const Experiment& e_;
  const PluginRegistry& registry_;
  const RunOptions& options_;
  ResultFolder folder_;
  std::optional<double> load_at_start_ = load_average();
  Limit budget_ = core::memory_budget(options_.max_memory);
  Limit threads_;  ///< run_threads(), once the plan is known
  Plan plan_;
  std::vector<bool> selected_;
  std::vector<RunGroup> groups_;        ///< form_run_groups(), with the runs still to do
  std::vector<GramPlace> gram_places_;  ///< demanding_places(): each cell's, for estimates
  /// Why each cell cannot run on its solver's target, or nothing (check_devices).
  std::vector<std::optional<std::string>> device_refusals_;
  std::vector<std::shared_ptr<Kernel>> kernels_;
  std::vector<std::shared_ptr<Dataset>> datasets_;
  RunData data_;
  /// Whether each cell may start, from the members above as the run fills them.
  CellAdmission admission_{{&plan_, &data_, &kernels_, &device_refusals_, &gram_places_, &budget_,
                            &threads_, options_.max_cell_seconds}};
  std::vector<std::string> columns_;
  KernelMatrixPlan kernel_matrices_;  ///< what output.kernel_matrix writes
  ResultWriters writers_;
  Manifest manifest_;
  ResumeState resume_;
  std::vector<InputFile> inputs_;  ///< the files the parameters name, hashed
  std::set<RunKey> done_;
  std::set<std::string> warned_metrics_;  ///< solver/metric pairs already warned about
  std::vector<std::string> warnings_;     ///< about the plan, on stderr and in summary.md
  /// Held while a row or the manifest is written, and by the signal watcher.
  std::mutex io_;
  std::unique_ptr<StopSignals> signals_;
  std::string running_;       ///< the run in progress, for the manifest if it is abandoned
  std::vector<double> cost_;  ///< run_cost of one run of each cell, by cell index
  double cost_done_ = 0;      ///< of the runs finished
  std::string abandoned_;     ///< the run abandoned at a signal
  std::string stop_reason_;
  int stop_signal_ = 0;
  bool stop_ = false;  ///< start no further cell
  bool finished_ = false;
  std::size_t total_ = 0;
  Outcome outcome_;
  std::unique_ptr<Progress> progress_;
};

}  // namespace

int run_experiment(const Experiment& experiment, const PluginRegistry& registry,
                   const RunOptions& options) {
  return Run(experiment, registry, options).run();
}

}  // namespace kexp::core
