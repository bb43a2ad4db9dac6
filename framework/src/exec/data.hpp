// Turning what a dataset plugin returns into the train and test sets a cell uses.
#pragma once

#include <armadillo>
#include <cstdint>
#include <string>

#include <vector>

#include "config/experiment.hpp"
#include "kexp/dataset.hpp"
#include "kexp/params.hpp"

namespace kexp::core {

/// One split of the training part for model selection: indices into X_train, each
/// increasing; a solver is fitted on `fit` and judged on `held_out`.
struct ValidationSplit {
  arma::uvec fit, held_out;
};

struct PreparedData {
  arma::mat X_train, X_test;  ///< d × n, d × m
  arma::vec y_train, y_test;
  Task task = Task::Regression;
  /// A sequence dataset's symbols (kexp/dataset.hpp's encoding); empty for vectors.
  std::vector<std::string> alphabet;
  /// The k folds or the one held-out split of the training part; empty without
  /// validation. The same for every cell of a dataset variant and repeat.
  std::vector<ValidationSplit> splits;
};

/// The d a feature map's dimension(d) takes for this data: the number of features, or for
/// sequences the alphabet's size.
[[nodiscard]] inline std::size_t input_size(const PreparedData& data) {
  return data.alphabet.empty() ? data.X_train.n_rows : data.alphabet.size();
}

/// The sizes of prepared data that the memory and time estimates read.
struct DataDims {
  double n = 0, m = 0, d = 0;  ///< training samples, test samples, rows of X
  double input_size = 0;       ///< input_size(): d, or for sequences the alphabet's size
  std::size_t splits = 0;      ///< validation splits of the training part
  double largest_fit = 0;      ///< samples in the largest split's fitting part
};

/// The sizes of `data`.
DataDims dims_of(const PreparedData& data);

/// The sizes prepare_data gives `n` generated samples of `d` features that it splits by
/// `test_fraction` and `validation`, without the data. Throws DataError naming `label`
/// as prepare_data does when a part would be empty.
DataDims planned_dims(std::size_t n, std::size_t d, double test_fraction,
                      const ValidationSpec& validation, const std::string& label);

/// Splits n training samples for `validation`, from a seeded Fisher–Yates shuffle
/// (std::mt19937_64(seed)). k folds: the i-th sample of the shuffled order goes to fold
/// i mod k, so fold sizes differ by at most one; split j holds fold j out. A fraction f:
/// round(f·n) samples held out (halves away from zero), at least one on each side.
/// Empty when validation is off. Throws DataError naming `label` when n is too small.
std::vector<ValidationSplit> validation_splits(arma::uword n, const ValidationSpec& validation,
                                               std::uint64_t seed, const std::string& label);

/// Checks the plugin's data (shapes, finite values; for sequences, the encoding), splits off
/// `test_fraction` of the samples unless the dataset has its own test set (a seeded shuffle), and
/// standardizes when `standardize` is true, with mean and deviation of the training part. `label`
/// names the dataset in messages. Throws DataError.
///
/// The split: round(test_fraction·n) test samples, halves away from zero (std::llround),
/// at least one on each side; chosen by a Fisher–Yates shuffle driven by
/// std::mt19937_64(seed), each part keeping the input's order. Standardization: every
/// feature of both parts becomes (x − mean) / s with the training part's mean and sample
/// standard deviation s (dividing by n_train − 1); a feature with s = 0 is only centred.
/// Targets are left as they are. With `validation`, the training part is then split
/// (validation_splits, from a seed derived from `seed`); standardization uses the whole
/// training part, folds included, so that every fold's K is a block of the training K.
PreparedData prepare_data(Data data, const Params& params, std::uint64_t seed,
                          const std::string& label, const ValidationSpec& validation = {});

/// Loads a dataset plugin's data with `context` and prepares it (prepare_data). Any
/// exception of the plugin becomes a DataError naming `label`; running out of memory
/// (std::bad_alloc) while it is generated or split, one naming n and d as well.
PreparedData load_data(const Dataset& dataset, const DatasetContext& context, const Params& params,
                       std::uint64_t seed, const std::string& label,
                       const ValidationSpec& validation = {});

}  // namespace kexp::core
