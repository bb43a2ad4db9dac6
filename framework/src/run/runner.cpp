#include "run/runner.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "results/writer.hpp"
#include "run/data.hpp"
#include "run/measure.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string>& fixed_columns() {
  static const std::vector<std::string> columns = {"cell",           "repeat",
                                                   "status",         "dataset",
                                                   "kernel",         "solver",
                                                   "form",           "n_train",
                                                   "n_test",         "d",
                                                   "feature_dim",    "train_rmse",
                                                   "test_rmse",      "test_accuracy",
                                                   "fit_seconds",    "predict_seconds",
                                                   "gram_seconds",   "feature_seconds",
                                                   "flops",          "matrix_bytes",
                                                   "peak_rss_bytes", "iterations",
                                                   "converged",      "seed",
                                                   "error"};
  return columns;
}

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
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

/// Emits a component of the resolved config: plugin and every parameter.
void emit_component(YAML::Emitter& out, const Variant& any,
                    const std::vector<ResolvedParam>& params) {
  out << YAML::BeginMap << YAML::Key << "plugin" << YAML::Value << std::string(any.plugin->name());
  for (const ResolvedParam& p : params) {
    out << YAML::Key << p.name << YAML::Value;
    if (p.swept) {
      out << YAML::Flow << YAML::BeginSeq;
      for (const ParamValue& v : p.values) out << format_value(v);
      out << YAML::EndSeq;
    } else {
      out << format_value(p.values.front());
    }
  }
  out << YAML::EndMap;
}

std::string resolved_config(const Experiment& e, const Plan& plan, const fs::path& out_dir) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "experiment" << YAML::Value << e.name;
  out << YAML::Key << "seed" << YAML::Value << e.seed;
  out << YAML::Key << "repeats" << YAML::Value << e.repeats;
  if (!e.plugin_path.empty()) {
    out << YAML::Key << "plugin_path" << YAML::Value << YAML::BeginSeq;
    for (const auto& p : e.plugin_path) out << fs::absolute(p).lexically_normal().string();
    out << YAML::EndSeq;
  }
  out << YAML::Key << "dataset" << YAML::Value;
  emit_component(out, plan.datasets.front(), plan.dataset_params);
  out << YAML::Key << "kernels" << YAML::Value << YAML::BeginSeq;
  for (std::size_t k = 0; k < e.kernels.size(); ++k) {
    const auto it = std::find_if(plan.kernels.begin(), plan.kernels.end(),
                                 [&](const Variant& v) { return v.component == k; });
    if (it->expression) {
      emit_kernel_expression(out, *it->expression, plan.kernel_params[k]);  // a sum or product
    } else {
      emit_component(out, *it, plan.kernel_params[k]);
    }
  }
  out << YAML::EndSeq;
  out << YAML::Key << "solvers" << YAML::Value << YAML::BeginSeq;
  for (std::size_t s = 0; s < e.solvers.size(); ++s) {
    const auto it = std::find_if(plan.solvers.begin(), plan.solvers.end(),
                                 [&](const Variant& v) { return v.component == s; });
    emit_component(out, *it, plan.solver_params[s]);
  }
  out << YAML::EndSeq;
  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "dir" << YAML::Value << out_dir.string();
  out << YAML::Key << "predictions" << YAML::Value << e.output.predictions;
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(
             "# Resolved by kexp: every default filled in. `kexp run` this file to run it "
             "again.\n") +
         out.c_str() + "\n";
}

/// What a (dataset, repeat, kernel) group shares among its cells.
struct GroupInputs {
  bool have_gram = false, have_features = false;
  arma::mat K;        ///< K(X, X)
  arma::mat K_cross;  ///< K(X, X*)
  arma::vec k_diag;   ///< k(x*, x*)
  double gram_seconds = 0, cross_seconds = 0;
  arma::mat Phi, Phi_test;
  double feature_seconds = 0, feature_test_seconds = 0;
  std::size_t feature_dim = 0;
  /// One per solver entry, for the cells of that entry in this group.
  std::map<std::size_t, SharedState> shared;
};

struct Outcome {
  int failed = 0;
  int done = 0;
  bool stop = false;
};

class Execution {
 public:
  Execution(const Experiment& e, const PluginRegistry& registry, const RunOptions& options)
      : e_(e), registry_(registry), options_(options) {}

  int run() {
    plan_ = make_plan(e_, registry_);
    create_objects();
    prepare_all_data();
    columns_ = fixed_columns();
    columns_.insert(columns_.end(), plan_.param_columns.begin(), plan_.param_columns.end());
    columns_.insert(columns_.end(), plan_.metric_columns.begin(), plan_.metric_columns.end());
    if (options_.dry_run) return dry_run();
    open_output();
    execute();
    finish();
    return outcome_.failed > 0 ? kExitCellsFailed : kExitOk;
  }

 private:
  void create_objects() {
    for (const Variant& v : plan_.kernels) kernels_.push_back(create_kernel_of(v));
    for (const Variant& v : plan_.datasets)
      datasets_.push_back(create_dataset(*v.plugin, v.params));
    // A primal solver needs the kernel's feature map: refuse before any work.
    std::set<std::pair<std::size_t, std::size_t>> checked;
    for (const Cell& c : plan_.cells) {
      if (c.form != Form::Primal || !checked.insert({c.kernel, c.solver}).second) continue;
      if (kernels_[c.kernel]->feature_map() != nullptr) continue;
      const ComponentSpec& solver = e_.solvers[plan_.solvers[c.solver].component];
      throw ConfigError(solver.where, solver.key,
                        fmt::format("{}: solver '{}' works in the primal form and needs an "
                                    "explicit feature map, but kernel {} has none; use a dual "
                                    "solver with it, or a kernel with a map",
                                    solver.key, solver.plugin, plan_.kernels[c.kernel].canonical));
    }
  }

  void prepare_all_data() {
    const int repeats = e_.repeats;
    data_.resize(plan_.datasets.size());
    for (std::size_t d = 0; d < plan_.datasets.size(); ++d) {
      const Variant& v = plan_.datasets[d];
      for (int r = 0; r < repeats; ++r) {
        const std::uint64_t seed =
            derive_seed(e_.seed, "dataset:" + v.canonical, static_cast<std::uint64_t>(r));
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

  double estimate_bytes(const Cell& c) const {
    const PreparedData& data = data_[c.dataset].front();
    const double n = static_cast<double>(data.X_train.n_cols);
    const double m = static_cast<double>(data.X_test.n_cols);
    if (c.form == Form::Dual) return 8.0 * (2.0 * n * n + n * m + 2.0 * m);
    const double D =
        static_cast<double>(kernels_[c.kernel]->feature_map()->dimension(data.X_train.n_rows));
    return 8.0 * (D * (n + m) + 2.0 * D * D);
  }

  double memory_budget() const {
    if (options_.max_memory > 0) return options_.max_memory;
    const double physical = static_cast<double>(physical_memory_bytes());
    return physical > 0 ? 0.8 * physical : 1e18;
  }

  int dry_run() {
    fmt::print("{} cells × {} repeats = {} runs; memory budget {:.3g} GB per cell\n",
               plan_.cells.size(), e_.repeats,
               plan_.cells.size() * static_cast<std::size_t>(e_.repeats), memory_budget() / 1e9);
    for (const Cell& c : plan_.cells) {
      const double bytes = estimate_bytes(c);
      fmt::print("{}  {:6}  {:>10.3g} MB{}  {} | {} | {}\n", c.id, to_string(c.form), bytes / 1e6,
                 bytes > memory_budget() ? " (over budget)" : "",
                 plan_.datasets[c.dataset].canonical, plan_.kernels[c.kernel].canonical,
                 plan_.solvers[c.solver].canonical);
    }
    return kExitOk;
  }

  void open_output() {
    out_dir_ = options_.out;
    if (out_dir_.empty()) {
      out_dir_ = e_.output.dir.empty() ? fs::path("results") / e_.name : fs::path(e_.output.dir);
    }
    std::error_code ec;
    if (fs::exists(out_dir_, ec) && !fs::is_empty(out_dir_, ec)) {
      if (!options_.force) {
        throw ConfigError(fmt::format(
            "result folder {} already exists and is not empty; choose another with --out, "
            "or replace it with --force",
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
    if (e_.output.predictions) fs::create_directories(out_dir_ / "predictions");
    started_ = now_iso8601();
    write_file_atomically(out_dir_ / "config.yaml", resolved_config(e_, plan_, out_dir_));
    write_manifest(false);
    writers_.push_back(std::make_unique<CsvWriter>(out_dir_ / "results.csv"));
    writers_.push_back(std::make_unique<JsonlWriter>(out_dir_ / "results.jsonl"));
    for (auto& w : writers_) w->begin(columns_, false);
  }

  void write_manifest(bool finished) {
    nlohmann::ordered_json m;
    m["kexp_version"] = KEXP_VERSION_STRING;
    m["experiment"] = e_.name;
    m["config_file"] = fs::absolute(e_.file).lexically_normal().string();
    m["command_line"] = options_.command_line;
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    m["host"] = host;
    m["seed"] = e_.seed;
    m["repeats"] = e_.repeats;
    m["threads"] = thread_count();
    m["started"] = started_;
    m["finished"] =
        finished ? nlohmann::ordered_json(now_iso8601()) : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json plugins = nlohmann::ordered_json::array();
    std::set<const PluginRecord*> seen;
    auto add = [&](const PluginRecord* p) {
      if (!seen.insert(p).second) return;
      plugins.push_back({{"kind", to_string(p->kind())},
                         {"name", std::string(p->name())},
                         {"version", p->info().version},
                         {"path", p->path.string()}});
    };
    for (const auto& v : plan_.datasets) add(v.plugin);
    for (const auto& v : plan_.kernels)
      for (const PluginRecord* p : kernel_plugins(v)) add(p);  // a sum or product: its terms'
    for (const auto& v : plan_.solvers) add(v.plugin);
    m["plugins"] = plugins;
    m["cells"] = plan_.cells.size();
    if (finished) {
      m["runs_ok"] = outcome_.done;
      m["runs_failed"] = outcome_.failed;
    }
    write_file_atomically(out_dir_ / "manifest.json", m.dump(2) + "\n");
  }

  void execute() {
    const std::size_t total = plan_.cells.size() * static_cast<std::size_t>(e_.repeats);
    for (std::size_t d = 0; d < plan_.datasets.size() && !outcome_.stop; ++d) {
      for (int r = 0; r < e_.repeats && !outcome_.stop; ++r) {
        for (std::size_t k = 0; k < plan_.kernels.size() && !outcome_.stop; ++k) {
          std::vector<const Cell*> group;
          for (const Cell& c : plan_.cells) {
            if (c.dataset == d && c.kernel == k) group.push_back(&c);
          }
          run_group(group, data_[d][static_cast<std::size_t>(r)], r, total);
        }
      }
    }
  }

  void run_group(const std::vector<const Cell*>& group, const PreparedData& data, int repeat,
                 std::size_t total) {
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
        const double need = estimate_bytes(*c);
        if (need > memory_budget()) {
          throw Error(
              fmt::format("refused: the cell needs about {:.3g} GB, more than the "
                          "memory budget of {:.3g} GB (--max-memory)",
                          need / 1e9, memory_budget() / 1e9));
        }
        reset_peak_rss();
        const std::size_t entry = plan_.solvers[c->solver].component;
        Sharing sharing{&in.shared[entry], group_size[entry], group_position[entry]++};
        run_cell(*c, data, kernel, in, last_dual, sharing, row);
        row.set("status", std::string("ok"));
        ++outcome_.done;
      } catch (const std::exception& err) {
        row.set("status", std::string("failed"));
        row.set("error", std::string(err.what()));
        ++outcome_.failed;
        std::cerr << fmt::format("kexp: cell {} (repeat {}) failed: {}\n", c->id, repeat,
                                 err.what());
        if (options_.fail_fast) outcome_.stop = true;
      }
      row.set("peak_rss_bytes", peak_rss_bytes());
      for (auto& w : writers_) w->write(row);
      progress(total);
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
                bool last_dual, const Sharing& sharing, Row& row) {
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
        Stopwatch wc;
        kernel.gram(data.X_train, data.X_test, in.K_cross);
        in.k_diag = kernel.diagonal(data.X_test);
        in.cross_seconds = wc.seconds();
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
      fit_and_predict(c, train, test, data, flops, bytes, in.cross_seconds, row);
      if (last_dual) {
        in.K.reset();
        in.have_gram = false;
      }
    } else {
      const FeatureMap& map = *kernel.feature_map();
      if (!in.have_features) {
        Stopwatch w;
        map.features(data.X_train, in.Phi);
        in.feature_seconds = w.seconds();
        Stopwatch wt;
        map.features(data.X_test, in.Phi_test);
        in.feature_test_seconds = wt.seconds();
        in.feature_dim = in.Phi.n_rows;
        in.have_features = true;
      }
      row.set("feature_seconds", in.feature_seconds);
      row.set("feature_dim", static_cast<std::int64_t>(in.feature_dim));
      flops += map.flops(n, d) + map.flops(m, d);
      bytes += 8.0 * static_cast<double>(in.feature_dim * (n + m));
      train.features = &in.Phi;
      test.features = &in.Phi_test;
      fit_and_predict(c, train, test, data, flops, bytes, in.feature_test_seconds, row);
    }
  }

  void fit_and_predict(const Cell& c, const TrainingData& train, const TestData& test,
                       const PreparedData& data, double flops, double bytes,
                       double test_input_seconds, Row& row) {
    const Variant& sv = plan_.solvers[c.solver];
    std::shared_ptr<Solver> solver = create_solver(*sv.plugin, sv.params);
    SolverReport report;
    Stopwatch fit_watch;
    solver->fit(train, report);
    row.set("fit_seconds", fit_watch.seconds());
    Stopwatch predict_watch;
    const Prediction prediction = solver->predict(test, report);
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

  void progress(std::size_t total) {
    if (options_.quiet || !isatty(STDERR_FILENO)) return;
    const std::size_t finished = static_cast<std::size_t>(outcome_.done + outcome_.failed);
    const double elapsed = clock_.seconds();
    const double eta = finished > 0 ? elapsed / static_cast<double>(finished) *
                                          static_cast<double>(total - finished)
                                    : 0;
    std::cerr << fmt::format("\r{}/{} done, {} failed, {:.0f}s elapsed, ETA {:.0f}s   ", finished,
                             total, outcome_.failed, elapsed, eta);
    if (finished == total) std::cerr << '\n';
  }

  void finish() {
    for (auto& w : writers_) w->end();
    write_manifest(true);
    write_summary();
    fmt::print("{} runs: {} ok, {} failed; results in {}\n", outcome_.done + outcome_.failed,
               outcome_.done, outcome_.failed, out_dir_.string());
  }

  void write_summary() {
    const CsvTable table = read_csv(out_dir_ / "results.csv");
    std::string md = fmt::format("# {}\n\n", e_.name);
    md += fmt::format("{} cells × {} repeats; {} ok, {} failed.\n\n", plan_.cells.size(),
                      e_.repeats, outcome_.done, outcome_.failed);
    std::vector<std::string> show = {"cell", "repeat", "status", "kernel", "solver", "form"};
    for (const auto& p : plan_.param_columns) {
      if (p.rfind("dataset.test_fraction", 0) == 0 || p.rfind("dataset.standardize", 0) == 0)
        continue;
      show.push_back(p);
    }
    for (const char* c :
         {"n_train", "feature_dim", "test_rmse", "test_accuracy", "fit_seconds", "gram_seconds"}) {
      show.emplace_back(c);
    }
    md += "|";
    for (const auto& s : show) md += " " + s + " |";
    md += "\n|";
    for (std::size_t i = 0; i < show.size(); ++i) md += "---|";
    md += "\n";
    for (const auto& r : table.rows) {
      md += "|";
      for (const auto& s : show) {
        const auto i = table.column(s);
        md += " " + (i && *i < r.size() ? r[*i] : std::string()) + " |";
      }
      md += "\n";
    }
    write_file_atomically(out_dir_ / "summary.md", md);
  }

  const Experiment& e_;
  const PluginRegistry& registry_;
  const RunOptions& options_;
  Plan plan_;
  std::vector<std::shared_ptr<Kernel>> kernels_;
  std::vector<std::shared_ptr<Dataset>> datasets_;
  std::vector<std::vector<PreparedData>> data_;
  std::vector<std::string> columns_;
  std::vector<std::unique_ptr<ResultWriter>> writers_;
  fs::path out_dir_;
  std::string started_;
  Outcome outcome_;
  Stopwatch clock_;
};

}  // namespace

int run_experiment(const Experiment& experiment, const PluginRegistry& registry,
                   const RunOptions& options) {
  if (options.threads > 0) set_thread_count(options.threads);
  return Execution(experiment, registry, options).run();
}

}  // namespace kexp::core
