// The classes of a classifier's targets and the one-against-one scheme of the support
// vector classifiers (svc, linear_svc), as LIBSVM trains and votes (Hsu & Lin, A
// comparison of methods for multiclass support vector machines, IEEE TNN 13, 2002): for k
// classes, k(k − 1)/2 binary problems, pair (a, b) on the samples of classes a (labelled
// +1) and b (−1); a test point goes to the class with the most votes.
//
// Binary targets (Task::Classification) are −1 and +1 and give one problem whose decision
// value is the prediction; multi-class targets (Task::Multiclass) are the class labels
// themselves, and the prediction is the label voted for.
#pragma once

#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kexp/dataset.hpp"

namespace kexp_solvers {

/// The classes of a classification target, in the order of their first appearance (as
/// LIBSVM orders them; for ±1 targets +1 first, so that a positive decision value is +1),
/// and each sample's class index.
struct Classes {
  std::vector<double> labels;
  std::vector<std::size_t> of;  ///< per sample, its index in `labels`
};

/// The classes of `y` for the classifier `solver`: throws kexp::InvalidArgument, naming
/// the solver and the remedy, for regression targets, binary targets other than ±1,
/// non-finite labels, or fewer than two classes.
Classes classes_for(const arma::vec& y, kexp::Task task, const std::string& solver);

/// The pairs (a, b), a < b, in LIBSVM's order: (0, 1), (0, 2), …, (1, 2), …
std::vector<std::pair<std::size_t, std::size_t>> class_pairs(std::size_t classes);

/// The samples of one pair: those of class a, then those of class b, each in their order,
/// with labels +1 and −1.
struct PairSamples {
  std::vector<arma::uword> index;
  std::vector<std::int8_t> y;
};

PairSamples pair_samples(const Classes& classes, std::size_t a, std::size_t b);

/// The label each column of `decisions` (one row per pair of class_pairs, one column per
/// point) votes for: pair (a, b) votes a when its decision value is > 0, else b; the most
/// votes win, the first class among equals (LIBSVM's rule).
arma::vec vote(const arma::mat& decisions, const Classes& classes);

}  // namespace kexp_solvers
