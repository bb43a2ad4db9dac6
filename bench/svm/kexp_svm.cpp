// kexp's side of the comparison with LIBSVM and LIBLINEAR (bench/svm/compare.py): trains
// one of the SVM solvers on a file in LIBSVM's format, read by the `libsvm` dataset plugin,
// through the same plugin loader as `kexp run`, predicts a test file, and prints one JSON
// object: the seconds of reading, fitting and predicting, the solver's metrics, and the
// process's peak memory. The test predictions (decision values, or the labels voted for
// with more than two classes) are written one per line to --out.
//
//   kexp_svm --solver svc --train F --test T --task classification --gamma 0.1
//            --param c=1 --param tolerance=1e-3 [--threads N] [--memory-budget BYTES]
//            [--out decisions.txt]
//   kexp_svm --solver linear_svc --kernel linear ...      (Φ = X, the linear kernel's map)
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>

#include "config/schema.hpp"
#include "kexp/kexp.hpp"
#include "plugin/registry.hpp"
#include "util/blas_core.hpp"
#include "util/measure.hpp"

namespace {

using kexp::core::PluginRegistry;

kexp::Params params_for(const kexp::core::PluginRecord& p,
                        const std::map<std::string, std::string>& text) {
  kexp::core::ComponentSpec spec;
  spec.plugin = std::string(p.name());
  spec.key = spec.plugin;
  for (const auto& [k, v] : text) {
    kexp::core::ParamSetting s;
    s.name = k;
    s.key = spec.key + "." + k;
    s.values.push_back({v, {}, false});
    spec.params.push_back(s);
  }
  kexp::Params out;
  for (const auto& r :
       kexp::core::resolve_params(kexp::core::schema_of(*p.descriptor), spec, spec.plugin)) {
    out.set(r.name, r.values.front());
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  kexp::core::select_blas_core(argv);
  CLI::App app{"kexp's side of the LIBSVM and LIBLINEAR comparison"};
  std::string solver_name, train, test, task = "classification", kernel_name = "gaussian", out;
  double gamma = 0.1, budget = 0;
  int threads = 1;
  std::vector<std::string> settings;
  app.add_option("--solver", solver_name)
      ->required()
      ->check(CLI::IsMember({"svc", "svr", "linear_svc", "linear_svr"}));
  app.add_option("--train", train)->required();
  app.add_option("--test", test)->required();
  app.add_option("--task", task)->check(CLI::IsMember({"classification", "regression"}));
  app.add_option("--kernel", kernel_name)->check(CLI::IsMember({"gaussian", "linear"}));
  app.add_option("--gamma", gamma, "the Gaussian kernel's exp(−γ‖x − z‖²): σ = 1/√(2γ)");
  app.add_option("--param", settings, "a solver parameter, key=value");
  app.add_option("--threads", threads);
  app.add_option("--memory-budget", budget, "bytes, as kexp run's --max-memory");
  app.add_option("--out", out);
  CLI11_PARSE(app, argc, argv);

  try {
    kexp::set_thread_count(threads);
    kexp::detail::set_memory_budget(budget);
    const PluginRegistry registry = PluginRegistry::discover({kexp::core::default_plugin_folder()});
    kexp::core::reset_peak_rss();
    const std::int64_t baseline = kexp::core::peak_rss_bytes();

    kexp::core::Stopwatch clock;
    const auto& dataset_plugin = registry.find(kexp::PluginKind::Dataset, "libsvm");
    const auto dataset = kexp::core::create_dataset(
        dataset_plugin,
        params_for(dataset_plugin, {{"train", train}, {"test", test}, {"task", task}}));
    const kexp::Data data = dataset->load({});
    const double load_seconds = clock.seconds();

    const auto& kernel_plugin = registry.find(kexp::PluginKind::Kernel, kernel_name);
    std::map<std::string, std::string> kernel_params;
    if (kernel_name == "gaussian") {
      kernel_params["sigma"] = fmt::format("{:.17g}", 1.0 / std::sqrt(2.0 * gamma));
    }
    const auto kernel =
        kexp::core::create_kernel(kernel_plugin, params_for(kernel_plugin, kernel_params));
    std::map<std::string, std::string> solver_params;
    for (const std::string& s : settings) {
      const auto eq = s.find('=');
      if (eq == std::string::npos) throw kexp::Error("--param takes key=value, got " + s);
      solver_params[s.substr(0, eq)] = s.substr(eq + 1);
    }
    const auto& solver_plugin = registry.find(kexp::PluginKind::Solver, solver_name);
    const auto solver =
        kexp::core::create_solver(solver_plugin, params_for(solver_plugin, solver_params));
    const bool primal = solver_plugin.has_flag(kexp::flags::primal);

    clock = {};
    kexp::TrainingData training;
    kexp::TestData testing;
    training.targets = &data.y;
    training.task = data.task;
    arma::mat Phi, Phi_test;
    if (primal) {
      kernel->feature_map()->features(data.X, Phi);
      training.features = &Phi;
    } else {
      training.kernel = kernel.get();
      training.inputs = &data.X;
    }
    kexp::SolverReport report;
    solver->fit(training, report);
    const double fit_seconds = clock.seconds();

    clock = {};
    if (primal) {
      kernel->feature_map()->features(data.X_test, Phi_test);
      testing.features = &Phi_test;
    } else {
      testing.kernel = kernel.get();
      testing.inputs = &data.X_test;
    }
    const kexp::Prediction prediction = solver->predict(testing, report);
    const double predict_seconds = clock.seconds();

    if (!out.empty()) {
      std::ofstream file(out);
      for (const double v : prediction.mean) file << fmt::format("{:.17g}\n", v);
    }
    std::string metrics;
    for (const auto& [name, value] : report.metrics) {
      metrics += fmt::format("{}\"{}\": {}", metrics.empty() ? "" : ", ", name, value);
    }
    std::cout << fmt::format(
                     R"({{"load_seconds": {}, "fit_seconds": {}, "predict_seconds": {}, )"
                     R"("iterations": {}, "converged": {}, "fit_flops": {}, "peak_rss": {}, )"
                     R"("baseline_rss": {}, "blas_core": "{}", "threads": {}, "metrics": {{{}}}}})",
                     load_seconds, fit_seconds, predict_seconds, report.iterations,
                     report.converged ? "true" : "false", report.fit_flops,
                     kexp::core::peak_rss_bytes(), baseline, kexp::core::openblas_core(),
                     kexp::thread_count(), metrics)
              << '\n';
  } catch (const std::exception& e) {
    std::cerr << "kexp_svm: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
