// kexp's side of the scikit-learn comparison (bench/peer/compare.py). Runs one task on
// data written by the script (raw float64, row-major n × d, as numpy's tofile writes
// it), through the same plugin loader as `kexp run`, and prints one JSON object: the
// seconds of the timed work, the process's peak memory, and where the predictions went.
//
//   kexp_peer gram  --train X.bin --n N --d D --sigma S
//   kexp_peer krr   --train X.bin --y y.bin --test T.bin --n N --m M --d D --sigma S
//                   --lambdas 1e-3,1e-2 --out pred.bin
//   kexp_peer gp    ... --noise V --out pred.bin        (mean, then std of f)
//   kexp_peer rff   ... --features D --lambdas L --seed S --out pred.bin
//   kexp_peer nystrom ... --features M --lambdas L --seed S --centres C.bin --out pred.bin
//                   (Nyström features of m uniform centres, then primal ridge; the centres'
//                   indices written to C.bin for scikit-learn's side)
//   kexp_peer gp_learn --train X.bin --y y.bin --n N --d D --kernel rbf|gp4 --restarts R
//                   (gp_regression with optimize: true; prints the learned values and
//                   log p(t) too; bench/peer/gp_learning.py)
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "config/schema.hpp"
#include "kernel_algebra/composite_kernel.hpp"
#include "kernel_algebra/nystrom.hpp"
#include "kexp/kexp.hpp"
#include "plugin/registry.hpp"
#include "util/blas_core.hpp"
#include "util/measure.hpp"

namespace {

using kexp::core::PluginRegistry;

arma::mat read_matrix(const std::string& file, arma::uword rows, arma::uword cols) {
  // numpy writes a row-major n × d array: that is a column-major d × n matrix.
  arma::mat M(rows, cols);
  std::ifstream in(file, std::ios::binary);
  in.read(reinterpret_cast<char*>(M.memptr()),
          static_cast<std::streamsize>(M.n_elem * sizeof(double)));
  if (!in) throw kexp::Error(fmt::format("cannot read {} × {} doubles from {}", rows, cols, file));
  return M;
}

void write_vectors(const std::string& file, const std::vector<arma::vec>& vs) {
  std::ofstream out(file, std::ios::binary);
  for (const auto& v : vs) {
    out.write(reinterpret_cast<const char*>(v.memptr()),
              static_cast<std::streamsize>(v.n_elem * sizeof(double)));
  }
}

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

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  kexp::core::select_blas_core(argv);
  CLI::App app{"kexp side of the scikit-learn comparison"};
  std::string task, train, ytrain, test, out, lambdas = "1e-3";
  arma::uword n = 0, m = 0, d = 0;
  double sigma = 1.0, noise = 1e-3;
  int features = 100, seed = 0, calls = 1, restarts = 0;
  std::string kernel_kind = "rbf";
  app.add_option("task", task)
      ->required()
      ->check(CLI::IsMember({"gram", "krr", "gp", "rff", "nystrom", "gp_learn"}));
  app.add_option("--kernel", kernel_kind, "gp_learn: rbf (s·gaussian) or gp4 (+ c + s·linear)")
      ->check(CLI::IsMember({"rbf", "gp4"}));
  app.add_option("--restarts", restarts);
  std::string centres_file;
  app.add_option("--centres", centres_file, "nystrom: where to write the centres' indices");
  app.add_option("--train", train)->required();
  app.add_option("--y", ytrain);
  app.add_option("--test", test);
  app.add_option("--out", out);
  app.add_option("--n", n)->required();
  app.add_option("--m", m);
  app.add_option("--d", d)->required();
  app.add_option("--sigma", sigma);
  app.add_option("--lambdas", lambdas);
  app.add_option("--noise", noise);
  app.add_option("--features", features);
  app.add_option("--seed", seed);
  std::string precision = "double";
  app.add_option("--precision", precision, "krr: kernel_ridge's precision")
      ->check(CLI::IsMember({"double", "mixed"}));
  app.add_option("--calls", calls, "gram: how many times to compute K (the first is timed apart)");
  CLI11_PARSE(app, argc, argv);

  try {
    const PluginRegistry registry = PluginRegistry::discover({kexp::core::default_plugin_folder()});
    const arma::mat X = read_matrix(train, d, n);
    const std::string sigma_text = fmt::format("{}", sigma);
    const auto& gaussian = registry.find(kexp::PluginKind::Kernel, "gaussian");
    kexp::core::reset_peak_rss();
    const std::int64_t baseline = kexp::core::peak_rss_bytes();
    kexp::core::Stopwatch clock;
    std::vector<arma::vec> predictions;

    if (task == "gram") {
      // `calls` times into the same K, as a caller that keeps its matrix does; the JSON
      // gives the first call (fresh memory) and the median of the others.
      const auto kernel =
          kexp::core::create_kernel(gaussian, params_for(gaussian, {{"sigma", sigma_text}}));
      arma::mat K;
      std::vector<double> times;
      for (int c = 0; c < std::max(calls, 1); ++c) {
        clock = {};
        kernel->gram(X, K);
        times.push_back(clock.seconds());
      }
      predictions.push_back(arma::vec(arma::sum(K, 1)));
      if (!out.empty()) write_vectors(out, predictions);
      std::vector<double> rest(times.begin() + 1, times.end());
      std::sort(rest.begin(), rest.end());
      const double steady = rest.empty() ? times[0] : rest[rest.size() / 2];
      std::cout
          << fmt::format(
                 R"({{"seconds": {}, "steady_seconds": {}, "peak_rss": {}, "baseline_rss": {}, )"
                 R"("blas_core": "{}"}})",
                 times[0], steady, kexp::core::peak_rss_bytes(), baseline,
                 kexp::core::openblas_core())
          << '\n';
      return 0;
    }

    const arma::vec y = read_matrix(ytrain, n, 1);
    if (task == "gp_learn") {
      // Every start at 1, as scikit-learn's kernels are written in gp_learning.py.
      namespace algebra = kexp::algebra;
      const auto make = [&](const char* name, std::map<std::string, std::string> text) {
        const auto& plugin = registry.find(kexp::PluginKind::Kernel, name);
        return kexp::core::create_kernel(plugin, params_for(plugin, text));
      };
      std::vector<std::shared_ptr<kexp::Kernel>> terms = {
          algebra::scaled(make("gaussian", {{"sigma", "1"}}), 1.0)};
      if (kernel_kind == "gp4") {
        terms.push_back(make("constant", {{"c", "1"}}));
        terms.push_back(algebra::scaled(make("linear", {}), 1.0));
      }
      const auto kernel = algebra::combined(algebra::Combination::Sum, terms);
      const auto& solver_plugin = registry.find(kexp::PluginKind::Solver, "gp_regression");
      const auto solver = kexp::core::create_solver(
          solver_plugin, params_for(solver_plugin, {{"noise", "1"},
                                                    {"optimize", "true"},
                                                    {"restarts", std::to_string(restarts)},
                                                    {"seed", std::to_string(seed)}}));
      clock = {};
      // As `kexp run` gives it: the kernel and the points, no K at the written values.
      kexp::TrainingData learning;
      learning.targets = &y;
      learning.kernel = kernel.get();
      learning.inputs = &X;
      kexp::SolverReport report;
      solver->fit(learning, report);
      const double seconds = clock.seconds();
      std::string learned;
      for (const auto& [name, value] : report.learned)
        learned += fmt::format("{}\"{}\": {}", learned.empty() ? "" : ", ", name, value);
      std::cout << fmt::format(
                       R"({{"seconds": {}, "peak_rss": {}, "baseline_rss": {}, )"
                       R"("log_marginal_likelihood": {}, "evaluations": {}, "learned": {{{}}}}})",
                       seconds, kexp::core::peak_rss_bytes(), baseline,
                       report.metrics.front().second, report.iterations, learned)
                << '\n';
      return 0;
    }
    const arma::mat T = read_matrix(test, d, m);
    kexp::TrainingData train_data;
    train_data.targets = &y;
    kexp::TestData test_data;
    kexp::SharedState shared;

    if (task == "krr" || task == "gp") {
      const auto kernel =
          kexp::core::create_kernel(gaussian, params_for(gaussian, {{"sigma", sigma_text}}));
      const auto& solver_plugin =
          registry.find(kexp::PluginKind::Solver, task == "krr" ? "kernel_ridge" : "gp_regression");
      const std::vector<std::string> values =
          task == "krr" ? split(lambdas) : std::vector<std::string>{fmt::format("{}", noise)};
      const bool keeps_gram = solver_plugin.has_flag(kexp::flags::keeps_gram);
      clock = {};
      // As `kexp run` does: K(X, X*) is built after the first fit, and the last fit may
      // factor K in place, after which K is released unless the solver reads it again;
      // K's only user, when it reads one triangle, gets only that triangle computed.
      arma::mat K, Kx;
      arma::vec diag;
      const bool lower_only =
          values.size() == 1 && solver_plugin.has_flag(kexp::flags::lower_triangle);
      kernel->gram(X, K, lower_only ? kexp::Triangle::Lower : kexp::Triangle::Both);
      test_data.gram = &Kx;
      test_data.gram_diagonal = &diag;
      for (std::size_t i = 0; i < values.size(); ++i) {
        const auto solver = kexp::core::create_solver(
            solver_plugin, task == "krr" ? params_for(solver_plugin, {{"lambda", values[i]},
                                                                      {"precision", precision}})
                                         : params_for(solver_plugin, {{"noise", values[i]}}));
        const bool last = i + 1 == values.size();
        train_data.gram = &K;
        train_data.gram_writable = last;
        train_data.gram_lower_only = lower_only;
        train_data.shared = &shared;
        train_data.group_size = values.size();
        train_data.group_position = i;
        kexp::SolverReport report;
        solver->fit(train_data, report);
        if (last && !keeps_gram) K.reset();
        if (Kx.is_empty()) {
          kernel->gram(X, T, Kx);
          diag = kernel->diagonal(T);
        }
        kexp::Prediction p = solver->predict(test_data, report);
        predictions.push_back(p.mean);
        if (task == "gp") predictions.push_back(arma::sqrt(p.var_f));
      }
    } else {
      // A finite map, then primal ridge: Nyström features of m uniform centres, or random
      // Fourier features. The centres are drawn again inside the timed fit, from the same
      // seed: the same ones.
      const auto& solver_plugin = registry.find(kexp::PluginKind::Solver, "primal_ridge");
      std::shared_ptr<kexp::Kernel> kernel;
      const auto seed_value = static_cast<std::uint64_t>(seed);
      if (task == "nystrom") {
        const auto base =
            kexp::core::create_kernel(gaussian, params_for(gaussian, {{"sigma", sigma_text}}));
        kexp::algebra::NystromSettings settings;
        settings.m = static_cast<std::size_t>(features);
        settings.kmeanspp = false;
        const arma::uvec chosen = kexp::algebra::nystrom_centres(*base, X, settings, seed_value);
        if (!centres_file.empty()) {
          write_vectors(centres_file, {arma::conv_to<arma::vec>::from(chosen)});
        }
        clock = {};
        kernel = kexp::algebra::nystrom(base, settings);
        kexp::KernelFitData fit_data;
        fit_data.X = &X;
        fit_data.y = &y;
        fit_data.seed = seed_value;
        kernel->fit(fit_data);
      } else {  // rff
        kernel = kexp::core::create_kernel(
            gaussian, params_for(gaussian, {{"sigma", sigma_text},
                                            {"map", "rff"},
                                            {"features", std::to_string(features)},
                                            {"seed", std::to_string(seed)}}));
        clock = {};
      }
      arma::mat Phi, PhiT;
      kernel->feature_map()->features(X, Phi);
      kernel->feature_map()->features(T, PhiT);
      train_data.features = &Phi;
      test_data.features = &PhiT;
      const auto solver = kexp::core::create_solver(
          solver_plugin, params_for(solver_plugin, {{"lambda", lambdas}}));
      kexp::SolverReport report;
      solver->fit(train_data, report);
      predictions.push_back(solver->predict(test_data, report).mean);
    }
    const double seconds = clock.seconds();
    if (!out.empty()) write_vectors(out, predictions);
    std::cout << fmt::format(
                     R"({{"seconds": {}, "peak_rss": {}, "baseline_rss": {}, "blas_core": "{}"}})",
                     seconds, kexp::core::peak_rss_bytes(), baseline, kexp::core::openblas_core())
              << '\n';
  } catch (const std::exception& e) {
    std::cerr << "kexp_peer: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
