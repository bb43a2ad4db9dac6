// Turning what a dataset plugin returns into the train and test sets a cell uses.
#pragma once

#include <armadillo>
#include <cstdint>
#include <string>

#include "kexp/dataset.hpp"
#include "kexp/params.hpp"

namespace kexp::core {

struct PreparedData {
  arma::mat X_train, X_test;  ///< d × n, d × m
  arma::vec y_train, y_test;
  Task task = Task::Regression;
};

/// Checks the plugin's data (shapes, finite values), splits off `test_fraction` of the
/// samples unless the dataset has its own test set (a seeded shuffle), and standardizes
/// when `standardize` is true, with mean and deviation of the training part.
/// `label` names the dataset in messages. Throws DataError.
///
/// The split: round(test_fraction·n) test samples, halves away from zero (std::llround),
/// at least one on each side; chosen by a Fisher–Yates shuffle driven by
/// std::mt19937_64(seed), each part keeping the input's order. Standardization: every
/// feature of both parts becomes (x − mean) / s with the training part's mean and sample
/// standard deviation s (dividing by n_train − 1); a feature with s = 0 is only centred.
/// Targets are left as they are.
PreparedData prepare_data(Data data, const Params& params, std::uint64_t seed,
                          const std::string& label);

/// Loads a dataset plugin's data with `context` and prepares it (prepare_data). Any
/// exception of the plugin becomes a DataError naming `label`.
PreparedData load_data(const Dataset& dataset, const DatasetContext& context, const Params& params,
                       std::uint64_t seed, const std::string& label);

}  // namespace kexp::core
