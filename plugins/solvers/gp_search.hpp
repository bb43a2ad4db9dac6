// gp_regression's search of its kernel's hyperparameters and the noise: the maximum of the
// log marginal likelihood (solvers/gp_likelihood.hpp) by L-BFGS (NLopt) in log space,
// within bounds, from the starting values and from restarts drawn log-uniformly within
// them. Serves gp_regression.cpp alone.
#pragma once

#include <nlopt.h>

#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solvers/gp_likelihood.hpp"

namespace kexp_solvers {

/// The range every hyperparameter and the noise are searched in unless `bounds` names
/// them: scikit-learn's default for its kernels' parameters.
inline constexpr double kDefaultLower = 1e-5, kDefaultUpper = 1e5;

struct Bound {
  std::string name;
  double lower = kDefaultLower, upper = kDefaultUpper;
};

/// "sigma=0.01:100, noise=1e-6:1" → the named bounds; a name absent keeps the defaults.
inline std::vector<Bound> parse_bounds(const std::string& text) {
  std::vector<Bound> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(at, end - at);
    at = end + 1;
    const auto first = item.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    item = item.substr(first, item.find_last_not_of(' ') - first + 1);
    const auto eq = item.find('='), colon = item.find(':', eq == std::string::npos ? 0 : eq);
    const auto bad = [&](const std::string& why) {
      return kexp::InvalidArgument("bounds: '" + item + "' " + why +
                                   "; write name=lower:upper, for example "
                                   "\"sigma=0.01:100, noise=1e-6:1\"");
    };
    if (eq == std::string::npos || colon == std::string::npos || eq == 0) {
      throw bad("is not name=lower:upper");
    }
    Bound b;
    b.name = item.substr(0, eq);
    b.name = b.name.substr(0, b.name.find_last_not_of(' ') + 1);
    try {
      std::size_t used = 0;
      const std::string lower = item.substr(eq + 1, colon - eq - 1);
      const std::string upper = item.substr(colon + 1);
      b.lower = std::stod(lower, &used);
      if (lower.find_first_not_of(' ', used) != std::string::npos)
        throw bad("has a bad lower bound");
      b.upper = std::stod(upper, &used);
      if (upper.find_first_not_of(' ', used) != std::string::npos)
        throw bad("has a bad upper bound");
    } catch (const std::logic_error&) {
      throw bad("has a bound that is not a number");
    }
    if (!(b.lower > 0) || !(b.upper >= b.lower) || !std::isfinite(b.upper)) {
      throw bad("needs 0 < lower ≤ upper < ∞ (the values are learned in log space)");
    }
    out.push_back(b);
  }
  return out;
}

struct LikelihoodSearch {
  const kexp::Kernel* kernel = nullptr;
  const arma::mat* X = nullptr;
  const arma::vec* t = nullptr;
  nlopt_opt opt = nullptr;
  long evaluations = 0;
  double best = -std::numeric_limits<double>::infinity();
  arma::vec best_x;
  std::exception_ptr error;
};

inline double search_objective(unsigned count, const double* x, double* gradient, void* data) {
  auto& s = *static_cast<LikelihoodSearch*>(data);
  try {
    const arma::vec point(x, count);
    arma::vec g;
    const double value =
        gp_log_likelihood(*s.kernel, *s.X, *s.t, point, gradient != nullptr ? &g : nullptr);
    ++s.evaluations;
    if (gradient != nullptr) std::copy(g.begin(), g.end(), gradient);
    if (value > s.best) {
      s.best = value;
      s.best_x = point;
    }
    // L-BFGS cannot step from −∞: a very low value turns its line search back.
    return std::isfinite(value) ? value : -1e300;
  } catch (...) {
    s.error = std::current_exception();
    nlopt_force_stop(s.opt);
    return 0.0;
  }
}

/// Where the search ended: the best point (the logarithms of the hyperparameters, then
/// of the noise), its log p(t), the evaluations, and whether a start that stopped by its
/// tolerances reached it.
struct SearchResult {
  arma::vec best_x;
  double best = -std::numeric_limits<double>::infinity();
  long evaluations = 0;
  bool converged = false;
};

/// The search over `hyper` (the kernel's hyperparameters, the noise last) for the kernel
/// on the points X with targets t. Throws InvalidArgument for a start outside its bounds or
/// a bound that names nothing, NumericError when C was never positive definite.
inline SearchResult search_hyperparameters(const kexp::Kernel& kernel, const arma::mat& X,
                                           const arma::vec& t,
                                           const std::vector<kexp::Hyperparameter>& hyper,
                                           const std::vector<Bound>& bounds, long restarts,
                                           long evaluations, std::uint64_t seed) {
  const std::size_t p = hyper.size();
  arma::vec lower(p), upper(p), start(p);
  for (std::size_t j = 0; j < p; ++j) {
    Bound b{hyper[j].name};
    for (const Bound& given : bounds)
      if (given.name == hyper[j].name) b = given;
    if (!(hyper[j].value >= b.lower && hyper[j].value <= b.upper)) {
      throw kexp::InvalidArgument(
          "the start " + hyper[j].name + " = " + kexp::format_value(hyper[j].value) +
          " lies outside its bounds [" + kexp::format_value(b.lower) + ", " +
          kexp::format_value(b.upper) + "]; widen them in `bounds` or start inside");
    }
    lower[j] = std::log(b.lower);
    upper[j] = std::log(b.upper);
    start[j] = std::log(hyper[j].value);
  }
  for (const Bound& given : bounds) {
    bool known = false;
    for (const auto& h : hyper) known = known || h.name == given.name;
    if (known) continue;
    std::string names;
    for (const auto& h : hyper) names += (names.empty() ? "" : ", ") + h.name;
    throw kexp::InvalidArgument("bounds: '" + given.name +
                                "' is not a hyperparameter of this kernel or the noise; "
                                "the names are " +
                                names);
  }

  const std::unique_ptr<nlopt_opt_s, void (*)(nlopt_opt)> opt(
      nlopt_create(NLOPT_LD_LBFGS, static_cast<unsigned>(p)), nlopt_destroy);
  if (!opt) throw kexp::Error("NLopt could not create an L-BFGS optimizer");
  LikelihoodSearch search;
  search.kernel = &kernel;
  search.X = &X;
  search.t = &t;
  search.opt = opt.get();
  nlopt_set_lower_bounds(opt.get(), lower.memptr());
  nlopt_set_upper_bounds(opt.get(), upper.memptr());
  nlopt_set_max_objective(opt.get(), &search_objective, &search);
  nlopt_set_ftol_rel(opt.get(), 1e-12);
  nlopt_set_xtol_rel(opt.get(), 1e-10);
  nlopt_set_maxeval(opt.get(), static_cast<int>(evaluations));

  std::mt19937_64 rng(seed);
  // Each start's best value, and whether it stopped by its tolerances or by rounding
  // near a maximum (NLopt: "typically a useful result"), not by the evaluation cap.
  std::vector<std::pair<double, bool>> ends;
  for (long r = 0; r <= restarts; ++r) {
    arma::vec x = start;
    if (r > 0) {
      for (std::size_t j = 0; j < p; ++j)
        x[j] = std::uniform_real_distribution<double>(lower[j], upper[j])(rng);
    }
    double value = 0;
    const nlopt_result result = nlopt_optimize(opt.get(), x.memptr(), &value);
    if (search.error) std::rethrow_exception(search.error);
    ends.emplace_back(
        value, (result > 0 && result != NLOPT_MAXEVAL_REACHED) || result == NLOPT_ROUNDOFF_LIMITED);
  }
  // Converged when a start that stopped cleanly reached the best value (to 1e-9 of it:
  // starts that meet at one maximum differ in its last digits).
  bool converged = false;
  for (const auto& [value, clean] : ends) {
    converged =
        converged || (clean && value >= search.best - 1e-9 * std::max(1.0, std::abs(search.best)));
  }
  if (!std::isfinite(search.best)) {
    throw kexp::NumericError(
        "C = K + noise·I was not positive definite at any point the optimizer tried; "
        "raise the lower bound of the noise in `bounds`");
  }

  return {search.best_x, search.best, search.evaluations, converged};
}

}  // namespace kexp_solvers
