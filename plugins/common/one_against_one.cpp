// Classes and one-against-one voting (common/one_against_one.hpp).
#include "common/one_against_one.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kexp/error.hpp"

namespace kexp_solvers {

Classes classes_for(const arma::vec& y, kexp::Task task, const std::string& solver) {
  if (task == kexp::Task::Regression) {
    throw kexp::InvalidArgument(fmt::format(
        "{} is a classifier, but the dataset's targets are a regression's; use a classification "
        "dataset (a file dataset's `task: classification`), or a regression solver",
        solver));
  }
  Classes c;
  c.of.resize(y.n_elem);
  for (arma::uword i = 0; i < y.n_elem; ++i) {
    const double v = y[i];
    if (!std::isfinite(v) || (task == kexp::Task::Classification && v != 1.0 && v != -1.0)) {
      throw kexp::InvalidArgument(fmt::format(
          "{}: target {} is {}, which is not a class label ({}); use a classification dataset",
          solver, i, v,
          task == kexp::Task::Classification ? "binary labels are −1 and +1" : "a finite number"));
    }
    const auto at = std::find(c.labels.begin(), c.labels.end(), v);
    c.of[i] = static_cast<std::size_t>(at - c.labels.begin());
    if (at == c.labels.end()) c.labels.push_back(v);
  }
  if (c.labels.size() < 2) {
    throw kexp::InvalidArgument(fmt::format(
        "{}: the training set holds {} only; a classifier needs samples of two classes at "
        "least (a larger n, or another split)",
        solver,
        c.labels.empty() ? std::string("no sample")
                         : fmt::format("one class (label {})", c.labels[0])));
  }
  if (c.labels.size() == 2 && c.labels[0] == -1.0 && c.labels[1] == 1.0) {
    // +1 first, so that a positive decision value means +1 (LIBSVM swaps them likewise)
    std::swap(c.labels[0], c.labels[1]);
    for (std::size_t& k : c.of) k = 1 - k;
  }
  return c;
}

std::vector<std::pair<std::size_t, std::size_t>> class_pairs(std::size_t classes) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t a = 0; a < classes; ++a)
    for (std::size_t b = a + 1; b < classes; ++b) out.emplace_back(a, b);
  return out;
}

PairSamples pair_samples(const Classes& classes, std::size_t a, std::size_t b) {
  PairSamples s;
  for (const std::size_t which : {a, b}) {
    for (std::size_t i = 0; i < classes.of.size(); ++i) {
      if (classes.of[i] != which) continue;
      s.index.push_back(static_cast<arma::uword>(i));
      s.y.push_back(which == a ? 1 : -1);
    }
  }
  return s;
}

arma::vec vote(const arma::mat& decisions, const Classes& classes) {
  const std::size_t k = classes.labels.size();
  const auto pairs = class_pairs(k);
  arma::vec out(decisions.n_cols);
  std::vector<int> votes(k);
  for (arma::uword c = 0; c < decisions.n_cols; ++c) {
    std::fill(votes.begin(), votes.end(), 0);
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      ++votes[decisions(p, c) > 0 ? pairs[p].first : pairs[p].second];
    }
    std::size_t best = 0;
    for (std::size_t i = 1; i < k; ++i)
      if (votes[i] > votes[best]) best = i;
    out[c] = classes.labels[best];
  }
  return out;
}

}  // namespace kexp_solvers
