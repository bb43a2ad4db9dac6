// "Did you mean" suggestions: the nearest name by edit distance, and the names other
// libraries use for kexp's (scikit-learn's 'rbf' for gaussian), with a note where one is
// known.
#include "util/names.hpp"

#include <algorithm>
#include <cctype>

namespace kexp::core {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearest_name(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, name.size() / 2) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

const std::vector<Synonym>& synonyms() {
  // In order: where one name stands for different kexp names in different plugins (alpha,
  // gamma), the first whose kexp name the plugin has is suggested.
  static const std::vector<Synonym> table = {
      // kernels
      {"rbf", "gaussian", "scikit-learn's 'rbf' kernel is kexp's gaussian"},
      {"squared_exponential", "gaussian", ""},
      {"poly", "polynomial", ""},
      {"laplace", "laplacian", ""},
      {"tanh", "sigmoid", ""},
      // solvers
      {"krr", "kernel_ridge", ""},
      {"kernelridge", "kernel_ridge", "scikit-learn's KernelRidge"},
      {"ridge", "primal_ridge", "ridge regression on the features Φ"},
      {"gp", "gp_regression", ""},
      {"gpr", "gp_regression", ""},
      {"gaussianprocessregressor", "gp_regression", "scikit-learn's GaussianProcessRegressor"},
      {"nadaraya", "nadaraya_watson", ""},
      // parameters
      {"gamma", "sigma",
       "scikit-learn's gamma: for the Gaussian kernel exp(−γ‖x − z‖²), σ = 1/√(2γ), so gamma "
       "0.5 is sigma 1; for kexp's laplacian exp(−‖x − z‖/σ), σ = 1/γ (scikit-learn's "
       "laplacian uses the L1 distance)"},
      {"length_scale", "sigma", "scikit-learn's RBF length_scale is σ"},
      {"gamma", "a", "scikit-learn's sigmoid kernel tanh(γ·xᵀz + coef0) has a = γ"},
      {"coef0", "c", "scikit-learn's coef0 is c in (xᵀz + c)^p"},
      {"coef0", "b", "scikit-learn's sigmoid kernel tanh(γ·xᵀz + coef0) has b = coef0"},
      {"alpha", "lambda", "scikit-learn's KernelRidge and Ridge alpha is λ"},
      {"alpha", "noise", "scikit-learn's GaussianProcessRegressor alpha is the noise variance"},
      {"n_components", "features",
       "scikit-learn's RBFSampler n_components is the number of random features D"},
      {"random_state", "seed", ""},
      {"max_iter", "iterations", ""},
      {"tol", "tolerance", ""},
      {"eta", "alpha", "the step size is alpha"},
      {"learning_rate", "alpha", "the step size is alpha"},
      {"n_samples", "n", ""},
      {"n_features", "d", ""},
  };
  return table;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const Synonym& s : synonyms()) {
    if (s.theirs != lower) continue;
    if (std::find(candidates.begin(), candidates.end(), s.ours) == candidates.end()) continue;
    return s.note.empty()
               ? "; did you mean '" + std::string(s.ours) + "'?"
               : "; did you mean '" + std::string(s.ours) + "'? (" + std::string(s.note) + ")";
  }
  const std::string near = nearest_name(name, candidates);
  return near.empty() ? std::string() : "; did you mean '" + near + "'?";
}

}  // namespace kexp::core
