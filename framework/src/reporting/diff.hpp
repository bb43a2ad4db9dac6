// `kexp diff A B`: two result folders compared run by run (cell id and repeat, or where
// the ids differ, as between folders of two versions, the resolved parameters), as a
// regeneration is checked against the report it regenerates. Accuracy must match;
// times are compared against the range of their measurements, since on a shared machine
// they move.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reporting/result_folder.hpp"

namespace kexp::core {

struct ResultsDiff {
  /// How the two resolved configs differ, one line per key ("kernels[0].sigma: [0.5, 1]
  /// in A, [0.5, 2] in B"); where results go and plugins were found left out.
  std::vector<std::string> config;
  bool configs_compared = false;  ///< both folders have their config.yaml
  std::size_t compared = 0;       ///< runs in both folders
  /// Runs whose status, shape (n_train, n_test, d, feature_dim) or an accuracy column
  /// (train and test RMSE and accuracy, the validation errors) differ: one line each.
  std::vector<std::string> accuracy;
  /// Phases whose measured ranges [min, max] do not overlap: one line each.
  std::vector<std::string> timing;
  std::size_t phases_compared = 0;
  double lowest_ratio = 0, highest_ratio = 0;     ///< of B's median time over A's, all phases
  std::vector<std::string> only_in_a, only_in_b;  ///< "cell repeat"
  /// Runs whose cell ids differ but whose parameters are the same (at their default where
  /// one folder does not name them): compared as one run, under A's id.
  std::size_t matched_by_parameters = 0;
  /// Why their ids differ: the versions and their rules of cell ids, or the parameters
  /// one folder's plugins have and the other's lack.
  std::string id_note;

  /// No accuracy difference and the same runs in both.
  [[nodiscard]] bool same_results() const {
    return accuracy.empty() && only_in_a.empty() && only_in_b.empty();
  }
};

/// Compares the results.csv of two folders. Numbers match when they differ by at most
/// `tolerance` relatively (and 1e-12 absolutely, for figures near zero).
ResultsDiff diff_results(const ResultFolder& a, const ResultFolder& b, double tolerance);

/// What differs, for the terminal: at most `limit` lines of each kind.
std::string diff_report(const ResultsDiff& diff, const std::string& a, const std::string& b,
                        std::size_t limit);

}  // namespace kexp::core
