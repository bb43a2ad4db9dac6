#include "run/runner.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "config/resolved.hpp"
#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "reporting/folder.hpp"
#include "reporting/pairing.hpp"
#include "reporting/summary.hpp"
#include "reporting/writer.hpp"
#include "run/data.hpp"
#include "run/manifest.hpp"
#include "run/measure.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

double default_memory_budget() {
  double limit = static_cast<double>(physical_memory_bytes());
  const double cgroup = static_cast<double>(cgroup_memory_limit_bytes());
  if (cgroup > 0 && (limit <= 0 || cgroup < limit)) limit = cgroup;
  return limit > 0 ? 0.8 * limit : 1e18;
}

namespace {

const std::vector<std::string>& fixed_columns() {
  static const std::vector<std::string> columns = {"cell",
                                                   "repeat",
                                                   "status",
                                                   "dataset",
                                                   "kernel",
                                                   "solver",
                                                   "form",
                                                   "n_train",
                                                   "n_test",
                                                   "d",
                                                   "feature_dim",
                                                   "train_rmse",
                                                   "test_rmse",
                                                   "test_accuracy",
                                                   "fit_seconds",
                                                   "predict_seconds",
                                                   "gram_seconds",
                                                   "feature_seconds",
                                                   "flops",
                                                   "matrix_bytes",
                                                   "peak_rss_bytes",
                                                   "iterations",
                                                   "converged",
                                                   "paired_with",
                                                   "prediction_max_diff",
                                                   "seed",
                                                   "error"};
  return columns;
}

double rmse(const arma::vec& y, const arma::vec& prediction) {
  if (y.n_elem == 0 || prediction.n_elem != y.n_elem) return std::nan("");
  return std::sqrt(arma::mean(arma::square(y - prediction)));
}

double accuracy(const arma::vec& y, const arma::vec& score) {
  if (y.n_elem == 0 || score.n_elem != y.n_elem) return std::nan("");
  std::size_t right = 0;
  for (arma::uword i = 0; i < y.n_elem; ++i) {
    const double label = score[i] >= 0 ? 1.0 : -1.0;
    if (label == (y[i] >= 0 ? 1.0 : -1.0)) ++right;
  }
  return static_cast<double>(right) / static_cast<double>(y.n_elem);
}

/// What a (dataset, repeat, kernel) group shares among its cells.
struct GroupInputs {
  bool have_gram = false, have_cross = false, have_features = false, have_test_features = false;
  arma::mat K;        ///< K(X, X)
  arma::mat K_cross;  ///< K(X, X*)
  arma::vec k_diag;   ///< k(x*, x*)
  double gram_seconds = 0, cross_seconds = 0;
  arma::mat Phi, Phi_test;
  double feature_seconds = 0, feature_test_seconds = 0;
  std::size_t feature_dim = 0;
  /// One per solver entry, for the cells of that entry in this group.
  std::map<std::size_t, SharedState> shared;
  /// Test predictions of the cells of the group that finished, for primal-dual pairs.
  std::vector<std::pair<const Cell*, arma::vec>> predictions;
};

struct Outcome {
  int done = 0;     ///< ran, status ok
  int failed = 0;   ///< ran and threw, or refused
  int refused = 0;  ///< of the failed: over the memory budget
  int skipped = 0;  ///< finished in the folder resumed
  bool stop = false;
};

/// A cell refused before it started.
class Refused : public Error {
 public:
  using Error::Error;
};

SolverSide side_of(const Variant& solver, Form form) {
  SolverSide s;
  s.form = to_string(form);
  for (const auto& [name, value] : solver.params.values()) s.params[name] = format_value(value);
  return s;
}

class Execution {
 public:
  Execution(const Experiment& e, const PluginRegistry& registry, const RunOptions& options)
      : e_(e), registry_(registry), options_(options) {}

  int run() {
    // The kernel itself says whether its parameters give it a map; the kernels made to
    // ask are the ones the cells use (one per variant, in order).
    plan_ = make_plan(e_, registry_, [this](const Variant& v) {
      kernels_.push_back(create_kernel_of(v));
      return kernels_.back()->feature_map() != nullptr;
    });
    selected_ = options_.shard ? cells_of_shard(plan_, *options_.shard)
                               : std::vector<bool>(plan_.cells.size(), true);
    create_objects();
    columns_ = fixed_columns();
    columns_.insert(columns_.end(), plan_.param_columns.begin(), plan_.param_columns.end());
    columns_.insert(columns_.end(), plan_.metric_columns.begin(), plan_.metric_columns.end());
    out_dir_ = output_folder();
    if (options_.resume) check_resume();
    prepare_all_data();
    if (options_.dry_run) return dry_run();
    for (const auto& l : plan_.left_out) std::cerr << "kexp: " << l << '\n';
    open_output();
    execute();
    finish();
    return outcome_.failed > 0 ? kExitCellsFailed : kExitOk;
  }

 private:
  void create_objects() {
    for (const Variant& v : plan_.datasets)
      datasets_.push_back(create_dataset(*v.plugin, v.params));
  }

  fs::path output_folder() const {
    if (options_.resume) return *options_.resume;
    if (!options_.out.empty()) return options_.out;
    fs::path dir = e_.output.dir.empty() ? fs::path("results") / e_.name : fs::path(e_.output.dir);
    if (options_.shard) {
      dir += fmt::format("-shard-{}-of-{}", options_.shard->index, options_.shard->count);
    }
    return dir;
  }

  /// The folder to resume must hold this very experiment: same resolved config, same
  /// columns. Its finished runs are skipped.
  void check_resume() {
    const fs::path& dir = out_dir_;
    const YAML::Node there = read_resolved_config(dir);
    const YAML::Node here = YAML::Load(resolved_config(e_, plan_, dir));
    if (const auto diff = config_difference(there, here)) {
      throw ConfigError(fmt::format(
          "--resume {}: that folder holds a different experiment: {}; resume with the config "
          "it was run with ({}), or run this one into a new folder",
          dir.string(), *diff, (dir / "config.yaml").string()));
    }
    resumed_ = read_results(dir);
    if (resumed_.columns != columns_) {
      std::string which;
      for (const auto& c : columns_) {
        if (std::find(resumed_.columns.begin(), resumed_.columns.end(), c) ==
            resumed_.columns.end()) {
          which = fmt::format("column '{}' is missing there", c);
          break;
        }
      }
      if (which.empty()) which = "its columns differ (written by another kexp version?)";
      throw ConfigError(
          fmt::format("--resume {}: results.csv does not match this run: {}", dir.string(), which));
    }
    done_ = finished_runs(resumed_);
    const auto manifest =
        nlohmann::json::parse(std::ifstream(dir / "manifest.json"), nullptr, false);
    if (manifest.is_object() && manifest.contains("started") && manifest["started"].is_string()) {
      resumed_started_ = manifest["started"].get<std::string>();
    }
  }

  bool is_done(const Cell& c, int repeat) const {
    return done_.count(RunKey{c.id, std::to_string(repeat)}) > 0;
  }

  /// Loads the datasets the selected cells use, every repeat, before anything is
  /// written: a dataset that cannot be loaded is an error of the experiment (exit 2).
  void prepare_all_data() {
    data_.resize(plan_.datasets.size());
    std::vector<bool> used(plan_.datasets.size(), false);
    for (const Cell& c : plan_.cells) used[c.dataset] = used[c.dataset] || selected_[c.index];
    for (std::size_t d = 0; d < plan_.datasets.size(); ++d) {
      if (!used[d]) continue;
      const Variant& v = plan_.datasets[d];
      for (int r = 0; r < e_.repeats; ++r) {
        const std::uint64_t seed = dataset_seed(v, r);
        DatasetContext context{seed, e_.base_dir};
        Data raw;
        try {
          raw = datasets_[d]->load(context);
        } catch (const DataError&) {
          throw;
        } catch (const ConfigError&) {
          throw;
        } catch (const std::exception& err) {
          throw DataError(
              fmt::format("dataset {} could not be loaded: {}", v.canonical, err.what()));
        }
        data_[d].push_back(prepare_data(std::move(raw), v.params, seed ^ 0x5eedULL, v.canonical));
      }
    }
  }

  std::uint64_t dataset_seed(const Variant& v, int repeat) const {
    return derive_seed(e_.seed, "dataset:" + v.canonical, static_cast<std::uint64_t>(repeat));
  }

  /// Bytes of the matrices a cell holds at its peak, and what they are.
  std::pair<double, std::string> estimate(const Cell& c) const {
    const PreparedData& data = data_[c.dataset].front();
    const double n = static_cast<double>(data.X_train.n_cols);
    const double m = static_cast<double>(data.X_test.n_cols);
    const double d = static_cast<double>(data.X_train.n_rows);
    const double inputs = 8.0 * d * (n + m);
    if (c.form == Form::Dual) {
      // K (n × n), a working copy a solver may make of it, K(X, X*) (n × m), k(x*, x*)
      return {8.0 * (2.0 * n * n + n * m + m) + inputs,
              fmt::format("n = {}, m = {}: the n × n Gram matrix and a working copy, the "
                          "n × m cross block",
                          n, m)};
    }
    const double D =
        static_cast<double>(kernels_[c.kernel]->feature_map()->dimension(data.X_train.n_rows));
    // Φ (D × n), Φ(X*) (D × m), a D × D system and its factor
    return {8.0 * (D * (n + m) + 2.0 * D * D) + inputs,
            fmt::format("n = {}, m = {}, D = {}: Φ, Φ(X*) and a D × D system", n, m, D)};
  }

  double memory_budget() const {
    return options_.max_memory > 0 ? options_.max_memory : default_memory_budget();
  }

  static std::string size_text(double bytes) {
    if (bytes >= 1e9) return fmt::format("{:.3g} GB", bytes / 1e9);
    if (bytes >= 1e6) return fmt::format("{:.3g} MB", bytes / 1e6);
    if (bytes >= 1e3) return fmt::format("{:.3g} kB", bytes / 1e3);
    return fmt::format("{:.0f} B", bytes);
  }

  int dry_run() {
    std::size_t cells = 0, runs = 0, over = 0;
    std::string lines;
    for (const Cell& c : plan_.cells) {
      if (!selected_[c.index]) continue;
      ++cells;
      int todo = 0;
      for (int r = 0; r < e_.repeats; ++r) todo += is_done(c, r) ? 0 : 1;
      runs += static_cast<std::size_t>(todo);
      const double bytes = estimate(c).first;
      const bool too_big = bytes > memory_budget();
      over += too_big ? 1 : 0;
      std::string state = too_big ? "  OVER BUDGET" : "";
      if (todo < e_.repeats)
        state += fmt::format("  {} of {} repeats done", e_.repeats - todo, e_.repeats);
      lines +=
          fmt::format("{}  {:<6}  {:>9}  {} | {} | {}{}\n", c.id, to_string(c.form),
                      size_text(bytes), plan_.datasets[c.dataset].canonical,
                      plan_.kernels[c.kernel].canonical, plan_.solvers[c.solver].canonical, state);
    }
    fmt::print("{} cells", cells);
    if (options_.shard)
      fmt::print(" (shard {} of {} cells)", options_.shard->str(), plan_.cells.size());
    fmt::print(" × {} repeats: {} runs to do; memory budget {} per cell; results would go to {}\n",
               e_.repeats, runs, size_text(memory_budget()), out_dir_.string());
    fmt::print("{:<16}  {:<6}  {:>9}  {}\n", "cell", "form", "memory", "dataset | kernel | solver");
    fmt::print("{}", lines);
    for (const auto& l : plan_.left_out) fmt::print("left out: {}\n", l);
    if (over > 0) {
      fmt::print("{} cells are over the memory budget and would be refused (--max-memory)\n", over);
    }
    return kExitOk;
  }

  void open_output() {
    if (options_.resume) {
      // Keep the finished runs, drop failed ones and partial lines: they run again.
      CsvTable kept = resumed_;
      kept.rows.clear();
      std::map<RunKey, std::string> keep;
      for (const auto& row : resumed_.rows) {
        const RunKey key = run_key(resumed_, row);
        if (done_.count(key) > 0 && keep.emplace(key, "ok").second) kept.rows.push_back(row);
      }
      const std::string jsonl = filter_jsonl(out_dir_ / "results.jsonl", keep);
      write_file_atomically(out_dir_ / "results.csv", csv_text(kept));
      write_file_atomically(out_dir_ / "results.jsonl", jsonl);
    } else {
      create_folder();
    }
    if (e_.output.predictions) fs::create_directories(out_dir_ / "predictions");
    started_ = now_iso8601();
    if (!options_.resume) {
      write_file_atomically(out_dir_ / "config.yaml", resolved_config(e_, plan_, out_dir_));
    }
    write_manifest(false);
    writers_.push_back(std::make_unique<CsvWriter>(out_dir_ / "results.csv"));
    writers_.push_back(std::make_unique<JsonlWriter>(out_dir_ / "results.jsonl"));
    for (auto& w : writers_) w->begin(columns_, options_.resume.has_value());
  }

  /// A new result folder; an existing one only with --force, and only when it is a
  /// result folder (never a folder of other files).
  void create_folder() {
    std::error_code ec;
    if (fs::exists(out_dir_, ec) && !fs::is_directory(out_dir_, ec)) {
      throw ConfigError(
          fmt::format("cannot create the result folder {}: a file of that name "
                      "exists; choose another with --out",
                      out_dir_.string()));
    }
    if (fs::exists(out_dir_, ec) && !fs::is_empty(out_dir_, ec)) {
      if (!options_.force) {
        throw ConfigError(fmt::format(
            "result folder {} already exists and is not empty; choose another with --out, "
            "continue it with --resume {}, or replace it with --force",
            out_dir_.string(), out_dir_.string()));
      }
      if (!fs::exists(out_dir_ / "config.yaml") && !fs::exists(out_dir_ / "manifest.json")) {
        throw ConfigError(fmt::format(
            "{} is not empty and is not a kexp result folder (no config.yaml or manifest.json): "
            "--force replaces only result folders; choose another with --out",
            out_dir_.string()));
      }
      fs::remove_all(out_dir_, ec);
      if (ec)
        throw ConfigError(fmt::format("cannot remove {}: {}", out_dir_.string(), ec.message()));
    }
    fs::create_directories(out_dir_, ec);
    if (ec || access(out_dir_.c_str(), W_OK) != 0) {
      throw ConfigError(
          fmt::format("cannot create the result folder {}: {}; choose another with --out",
                      out_dir_.string(), ec ? ec.message() : "not writable"));
    }
  }

  void write_manifest(bool finished) {
    nlohmann::ordered_json m = build_json();
    m["experiment"] = e_.name;
    m["config_file"] = fs::absolute(e_.file).lexically_normal().string();
    m["command_line"] = options_.command_line;
    m["working_directory"] = fs::current_path().string();
    m["started"] = started_;
    m["finished"] =
        finished ? nlohmann::ordered_json(now_iso8601()) : nlohmann::ordered_json(nullptr);
    m["environment"] = environment_json();
    nlohmann::ordered_json seeds;
    seeds["root"] = e_.seed;
    seeds["repeats"] = e_.repeats;
    seeds["derivation"] =
        "dataset: derive_seed(root, \"dataset:\" + variant, repeat); cell: derive_seed(root, "
        "\"cell:\" + id, repeat), in results.csv's seed column (FNV-1a and SplitMix64)";
    nlohmann::ordered_json datasets = nlohmann::ordered_json::array();
    for (const Variant& v : plan_.datasets) {
      nlohmann::ordered_json per_repeat = nlohmann::ordered_json::array();
      for (int r = 0; r < e_.repeats; ++r) per_repeat.push_back(std::to_string(dataset_seed(v, r)));
      datasets.push_back({{"variant", v.canonical}, {"seeds", per_repeat}});
    }
    seeds["datasets"] = datasets;
    m["seeds"] = seeds;
    nlohmann::ordered_json plugins = nlohmann::ordered_json::array();
    std::set<const PluginRecord*> seen;
    auto add = [&](const PluginRecord* p) {
      if (seen.insert(p).second) plugins.push_back(plugin_json(*p));
    };
    for (const auto& v : plan_.datasets) add(v.plugin);
    for (const auto& v : plan_.kernels)
      for (const PluginRecord* p : kernel_plugins(v)) add(p);  // a sum or product: its terms'
    for (const auto& v : plan_.solvers) add(v.plugin);
    m["plugins"] = plugins;
    m["cells"] = plan_.cells.size();
    if (options_.shard) {
      m["shard"] = {{"index", options_.shard->index},
                    {"count", options_.shard->count},
                    {"cells", std::count(selected_.begin(), selected_.end(), true)}};
    } else {
      m["shard"] = nullptr;
    }
    m["resumed"] = options_.resume ? nlohmann::ordered_json{{"first_started", resumed_started_},
                                                            {"runs_kept", done_.size()}}
                                   : nlohmann::ordered_json(nullptr);
    m["options"] = {{"max_memory_bytes", memory_budget()},
                    {"fail_fast", options_.fail_fast},
                    {"predictions", e_.output.predictions}};
    if (finished) {
      m["runs"] = {{"ok", outcome_.done},
                   {"failed", outcome_.failed - outcome_.refused},
                   {"refused", outcome_.refused},
                   {"kept_from_before", outcome_.skipped},
                   {"not_started", not_started()}};
    }
    write_file_atomically(out_dir_ / "manifest.json", m.dump(2) + "\n");
  }

  std::size_t runs_to_do() const {
    std::size_t total = 0;
    for (const Cell& c : plan_.cells) {
      if (!selected_[c.index]) continue;
      for (int r = 0; r < e_.repeats; ++r) total += is_done(c, r) ? 0 : 1;
    }
    return total;
  }

  std::size_t not_started() const {
    const std::size_t ran =
        static_cast<std::size_t>(outcome_.done) + static_cast<std::size_t>(outcome_.failed);
    return total_ > ran ? total_ - ran : 0;
  }

  void execute() {
    total_ = runs_to_do();
    for (const Cell& c : plan_.cells) {
      if (!selected_[c.index]) continue;
      for (int r = 0; r < e_.repeats; ++r) outcome_.skipped += is_done(c, r) ? 1 : 0;
    }
    for (std::size_t d = 0; d < plan_.datasets.size() && !outcome_.stop; ++d) {
      for (int r = 0; r < e_.repeats && !outcome_.stop; ++r) {
        for (std::size_t k = 0; k < plan_.kernels.size() && !outcome_.stop; ++k) {
          std::vector<const Cell*> group;
          for (const Cell& c : plan_.cells) {
            if (c.dataset == d && c.kernel == k && selected_[c.index] && !is_done(c, r))
              group.push_back(&c);
          }
          if (!group.empty()) run_group(group, data_[d][static_cast<std::size_t>(r)], r);
        }
      }
    }
    if (progress_shown_) std::cerr << '\n';
  }

  void run_group(const std::vector<const Cell*>& group, const PreparedData& data, int repeat) {
    GroupInputs in;
    const Kernel& kernel = *kernels_[group.front()->kernel];
    std::size_t dual_left = 0;
    std::map<std::size_t, std::size_t> group_size, group_position;
    for (const Cell* c : group) {
      dual_left += c->form == Form::Dual ? 1 : 0;
      ++group_size[plan_.solvers[c->solver].component];
    }
    for (const Cell* c : group) {
      if (outcome_.stop) return;
      Row row;
      const std::uint64_t seed =
          derive_seed(e_.seed, "cell:" + c->id, static_cast<std::uint64_t>(repeat));
      fill_identity(row, *c, data, repeat, seed);
      const bool last_dual = c->form == Form::Dual && --dual_left == 0;
      try {
        const auto [need, what] = estimate(*c);
        if (need > memory_budget()) {
          throw Refused(
              fmt::format("refused before it started: it needs about {} ({}), more than the memory "
                          "budget of {} per cell (--max-memory)",
                          size_text(need), what, size_text(memory_budget())));
        }
        reset_peak_rss();
        const std::size_t entry = plan_.solvers[c->solver].component;
        Sharing sharing{&in.shared[entry], group_size[entry], group_position[entry]++};
        arma::vec prediction;
        run_cell(*c, data, kernel, in, last_dual, sharing, row, prediction);
        pair_with_earlier(*c, in, prediction, row);
        in.predictions.emplace_back(c, std::move(prediction));
        row.set("status", std::string("ok"));
        ++outcome_.done;
      } catch (const std::exception& err) {
        const bool refused = dynamic_cast<const Refused*>(&err) != nullptr;
        row.set("status", std::string(refused ? "refused" : "failed"));
        row.set("error", std::string(err.what()));
        ++outcome_.failed;
        outcome_.refused += refused ? 1 : 0;
        if (progress_shown_) std::cerr << '\n';
        progress_shown_ = false;
        std::cerr << fmt::format("kexp: cell {} (repeat {}) {}: {}\n", c->id, repeat,
                                 refused ? "refused" : "failed", err.what());
        if (options_.fail_fast) outcome_.stop = true;
      }
      row.set("peak_rss_bytes", peak_rss_bytes());
      for (auto& w : writers_) w->write(row);
      progress();
    }
  }

  /// The largest difference between this cell's predictions and those of its earlier
  /// counterpart in the other form (the first one, in run order), while both are in
  /// memory.
  void pair_with_earlier(const Cell& c, const GroupInputs& in, const arma::vec& prediction,
                         Row& row) const {
    const SolverSide mine = side_of(plan_.solvers[c.solver], c.form);
    for (const auto& [other, p] : in.predictions) {
      if (!counterparts(mine, side_of(plan_.solvers[other->solver], other->form))) continue;
      if (p.n_elem != prediction.n_elem) continue;
      row.set("paired_with", other->id);
      row.set("prediction_max_diff", prediction.n_elem > 0 ? arma::abs(prediction - p).max() : 0.0);
      return;
    }
  }

  void fill_identity(Row& row, const Cell& c, const PreparedData& data, int repeat,
                     std::uint64_t seed) {
    row.set("cell", c.id);
    row.set("repeat", static_cast<std::int64_t>(repeat));
    row.set("dataset", std::string(plan_.datasets[c.dataset].plugin->name()));
    row.set("kernel", std::string(plan_.kernels[c.kernel].plugin->name()));
    row.set("solver", std::string(plan_.solvers[c.solver].plugin->name()));
    row.set("form", std::string(to_string(c.form)));
    row.set("n_train", static_cast<std::int64_t>(data.X_train.n_cols));
    row.set("n_test", static_cast<std::int64_t>(data.X_test.n_cols));
    row.set("d", static_cast<std::int64_t>(data.X_train.n_rows));
    row.set("seed", std::to_string(seed));
    for (const std::string& column : plan_.param_columns) {
      const std::string text = param_text(plan_, c, column);
      if (!text.empty()) row.set(column, text);
    }
  }

  struct Sharing {
    SharedState* state;
    std::size_t size, position;
  };

  void run_cell(const Cell& c, const PreparedData& data, const Kernel& kernel, GroupInputs& in,
                bool last_dual, const Sharing& sharing, Row& row, arma::vec& prediction) {
    const std::size_t n = data.X_train.n_cols, m = data.X_test.n_cols, d = data.X_train.n_rows;
    TrainingData train;
    train.targets = &data.y_train;
    train.task = data.task;
    train.shared = sharing.state;
    train.group_size = sharing.size;
    train.group_position = sharing.position;
    TestData test;
    double flops = 0, bytes = 0;
    if (c.form == Form::Dual) {
      if (!in.have_gram) {
        Stopwatch w;
        kernel.gram(data.X_train, in.K);
        in.gram_seconds = w.seconds();
        in.have_gram = true;
      }
      row.set("gram_seconds", in.gram_seconds);
      row.set("feature_dim", std::monostate{});
      flops += kernel.gram_flops(n, n, d) + kernel.gram_flops(n, m, d);
      bytes += 8.0 * static_cast<double>(n * n + n * m);
      // The group's last dual cell may factor K in place; the others must leave it intact.
      train.gram = &in.K;
      train.gram_writable = last_dual;
      test.gram = &in.K_cross;
      test.gram_diagonal = &in.k_diag;
      // K(X, X*) is built after the fit, once per group: the last cell first releases K
      // unless its solver reads K again when predicting, so K and K(X, X*) need not be
      // in memory together.
      const auto test_inputs = [&](const PluginRecord& solver) {
        if (last_dual && !solver.has_flag(flags::keeps_gram)) release_gram(in);
        if (!in.have_cross) {
          Stopwatch wc;
          kernel.gram(data.X_train, data.X_test, in.K_cross);
          in.k_diag = kernel.diagonal(data.X_test);
          in.cross_seconds = wc.seconds();
          in.have_cross = true;
        }
        return in.cross_seconds;
      };
      prediction = fit_and_predict(c, train, test, data, flops, bytes, test_inputs, row);
      if (last_dual) release_gram(in);
    } else {
      const FeatureMap& map = *kernel.feature_map();
      if (!in.have_features) {
        Stopwatch w;
        map.features(data.X_train, in.Phi);
        in.feature_seconds = w.seconds();
        in.feature_dim = in.Phi.n_rows;
        in.have_features = true;
      }
      row.set("feature_seconds", in.feature_seconds);
      row.set("feature_dim", static_cast<std::int64_t>(in.feature_dim));
      flops += map.flops(n, d) + map.flops(m, d);
      bytes += 8.0 * static_cast<double>(in.feature_dim * (n + m));
      train.features = &in.Phi;
      test.features = &in.Phi_test;
      const auto test_inputs = [&](const PluginRecord&) {
        if (!in.have_test_features) {
          Stopwatch wt;
          map.features(data.X_test, in.Phi_test);
          in.feature_test_seconds = wt.seconds();
          in.have_test_features = true;
        }
        return in.feature_test_seconds;
      };
      prediction = fit_and_predict(c, train, test, data, flops, bytes, test_inputs, row);
    }
  }

  static void release_gram(GroupInputs& in) {
    in.K.reset();
    in.have_gram = false;
  }

  /// Fits, then builds the test inputs (`test_inputs`, given the solver's plugin, returns
  /// the seconds it took, counted in predict_seconds), then predicts.
  template <class TestInputs>
  arma::vec fit_and_predict(const Cell& c, const TrainingData& train, const TestData& test,
                            const PreparedData& data, double flops, double bytes,
                            const TestInputs& test_inputs, Row& row) {
    const Variant& sv = plan_.solvers[c.solver];
    std::shared_ptr<Solver> solver = create_solver(*sv.plugin, sv.params);
    SolverReport report;
    Stopwatch fit_watch;
    solver->fit(train, report);
    row.set("fit_seconds", fit_watch.seconds());
    const double test_input_seconds = test_inputs(*sv.plugin);
    Stopwatch predict_watch;
    Prediction prediction = solver->predict(test, report);
    row.set("predict_seconds", predict_watch.seconds() + test_input_seconds);
    if (prediction.mean.n_elem != data.y_test.n_elem) {
      throw Error(fmt::format("solver '{}' returned {} predictions for {} test points",
                              sv.plugin->name(), prediction.mean.n_elem, data.y_test.n_elem));
    }
    // Training error: from the solver when it has the fitted values, else by predicting
    // on the training inputs while they are intact.
    arma::vec fitted = report.fitted;
    const bool inputs_intact = train.features != nullptr || !train.gram_writable;
    if (fitted.n_elem != data.y_train.n_elem && inputs_intact) {
      TestData on_train;
      on_train.features = train.features;
      on_train.gram = train.gram;
      const arma::vec diag = train.gram != nullptr ? arma::vec(train.gram->diag()) : arma::vec();
      on_train.gram_diagonal = train.gram != nullptr ? &diag : nullptr;
      SolverReport ignored;
      fitted = solver->predict(on_train, ignored).mean;
    }
    row.set("test_rmse", rmse(data.y_test, prediction.mean));
    if (fitted.n_elem == data.y_train.n_elem) row.set("train_rmse", rmse(data.y_train, fitted));
    if (data.task == Task::Classification)
      row.set("test_accuracy", accuracy(data.y_test, prediction.mean));
    row.set("flops", flops + report.fit_flops + report.predict_flops);
    row.set("matrix_bytes", bytes + report.matrix_bytes);
    if (report.iterations >= 0) row.set("iterations", static_cast<std::int64_t>(report.iterations));
    row.set("converged", report.converged);
    for (const auto& [name, value] : report.metrics) row.set(name, value);
    if (!report.loss_curve.empty()) {
      row.set("loss_curve", nlohmann::json(report.loss_curve).dump());
    }
    if (e_.output.predictions) write_predictions(c, row, data, prediction);
    return std::move(prediction.mean);
  }

  void write_predictions(const Cell& c, const Row& row, const PreparedData& data,
                         const Prediction& p) {
    const auto* repeat = std::get_if<std::int64_t>(row.get("repeat"));
    const bool variance = p.var_f.n_elem == p.mean.n_elem;
    std::string text = variance ? "index,y_true,y_pred,var_f,var_y\n" : "index,y_true,y_pred\n";
    for (arma::uword i = 0; i < p.mean.n_elem; ++i) {
      text += fmt::format("{},{},{}", i, data.y_test[i], p.mean[i]);
      if (variance) {
        text += fmt::format(",{},{}", p.var_f[i],
                            p.var_y.n_elem == p.mean.n_elem ? p.var_y[i] : p.var_f[i]);
      }
      text += '\n';
    }
    write_file_atomically(
        out_dir_ / "predictions" / fmt::format("{}-{}.csv", c.id, repeat ? *repeat : 0), text);
  }

  /// "12/40 runs, 1 failed, 3s elapsed, ETA 10s" on stderr, rewritten in place; only on a
  /// terminal.
  void progress() {
    if (options_.quiet || !isatty(STDERR_FILENO)) return;
    const std::size_t finished =
        static_cast<std::size_t>(outcome_.done) + static_cast<std::size_t>(outcome_.failed);
    const double elapsed = clock_.seconds();
    const double eta = finished > 0 ? elapsed / static_cast<double>(finished) *
                                          static_cast<double>(total_ - finished)
                                    : 0;
    std::cerr << fmt::format("\r{}/{} runs, {} failed, {:.0f}s elapsed, ETA {:.0f}s   ", finished,
                             total_, outcome_.failed, elapsed, eta);
    progress_shown_ = true;
  }

  void finish() {
    for (auto& w : writers_) w->end();
    write_manifest(true);
    std::vector<std::string> notes;
    if (options_.shard) {
      notes.push_back(
          fmt::format("Shard {} of a sweep of {} cells: `kexp merge` joins the shards' folders.",
                      options_.shard->str(), plan_.cells.size()));
    }
    if (outcome_.stop && not_started() > 0) {
      notes.push_back(fmt::format(
          "Stopped at the first failure (--fail-fast): {} runs did not start.", not_started()));
    }
    for (const auto& l : plan_.left_out) notes.push_back("Left out: " + l + ".");
    if (outcome_.skipped > 0) {
      notes.push_back(
          fmt::format("Resumed: {} runs had finished before and were kept.", outcome_.skipped));
    }
    write_report(out_dir_, notes);
    std::string counts =
        fmt::format("{} ok, {} failed", outcome_.done, outcome_.failed - outcome_.refused);
    if (outcome_.refused > 0) counts += fmt::format(", {} refused", outcome_.refused);
    if (outcome_.skipped > 0) counts += fmt::format(", {} kept from before", outcome_.skipped);
    if (not_started() > 0) counts += fmt::format(", {} not started", not_started());
    fmt::print("{} runs: {}; results in {}\n", outcome_.done + outcome_.failed, counts,
               out_dir_.string());
  }

  const Experiment& e_;
  const PluginRegistry& registry_;
  const RunOptions& options_;
  Plan plan_;
  std::vector<bool> selected_;
  std::vector<std::shared_ptr<Kernel>> kernels_;
  std::vector<std::shared_ptr<Dataset>> datasets_;
  std::vector<std::vector<PreparedData>> data_;
  std::vector<std::string> columns_;
  std::vector<std::unique_ptr<ResultWriter>> writers_;
  fs::path out_dir_;
  std::string started_, resumed_started_;
  CsvTable resumed_;
  std::set<RunKey> done_;
  std::size_t total_ = 0;
  Outcome outcome_;
  bool progress_shown_ = false;
  Stopwatch clock_;
};

}  // namespace

int run_experiment(const Experiment& experiment, const PluginRegistry& registry,
                   const RunOptions& options) {
  if (options.threads > 0) set_thread_count(options.threads);
  return Execution(experiment, registry, options).run();
}

}  // namespace kexp::core
