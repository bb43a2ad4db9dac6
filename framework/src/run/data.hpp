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
PreparedData prepare_data(Data data, const Params& params, std::uint64_t seed,
                          const std::string& label);

}  // namespace kexp::core
