// Dataset: the interface a dataset plugin implements.
//
// A dataset yields samples as columns (X is d × n) and their targets y, deterministically
// from its parameters and the seed it is given. It may provide its own test set (a file
// loader given a `test:` file); otherwise the runner splits off `test_fraction` of the
// samples. The runner also standardizes when the experiment asks, fitted on the training
// part only, so a plugin never does either.
//
// Sequences. A dataset that declares flags::sequences yields sequences over a finite
// alphabet Σ, each of its own length, instead of vectors. They are stored as one L × n
// matrix, L the longest length (of the training and test sets together): column j holds
// sequence j's symbols as their indices 0 … |Σ| − 1 in Data::alphabet, then −1 in every
// row past its end. One allocation holds them all, and every part of the runner that
// works on columns (splits, folds, shards, Nyström landmarks) works on sequences as it
// does on vectors. The runner checks the encoding and never standardizes sequences.
#pragma once

#include <armadillo>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kexp/export.hpp"

namespace kexp {

/// What the targets are: real values; binary labels −1 and +1; or the labels of more than
/// two classes, any distinct finite values (a file's 1, 2, 3), which a solver that declares
/// flags::multiclass predicts as they are (test_accuracy counts a prediction equal to the
/// label as right).
enum class Task : std::uint8_t { Regression, Classification, Multiclass };

KEXP_API const char* to_string(Task task);

/// What a dataset plugin returns.
struct Data {
  arma::mat X;            ///< d × n, a sample per column
  arma::vec y;            ///< n targets; ±1 labels for binary classification; class labels
  bool has_test = false;  ///< true when X_test, y_test are the test set, as they are
  arma::mat X_test;
  arma::vec y_test;
  Task task = Task::Regression;
  std::vector<std::string> feature_names;  ///< optional, d names
  /// A sequence dataset's symbols, in the order of their indices (at least one); empty
  /// for vectors.
  std::vector<std::string> alphabet;
};

/// What a dataset is loaded with.
struct DatasetContext {
  std::uint64_t seed = 0;  ///< derived from the experiment seed and the repeat
  /// Folder that relative paths in parameters are resolved against (the config's).
  std::filesystem::path base_dir;
};

/// The size of the data a dataset will yield, stated from its parameters before it is
/// built (Dataset::shape).
struct DataShape {
  std::size_t n = 0;  ///< samples, training and test together
  std::size_t d = 0;  ///< features: rows of X
};

class KEXP_API Dataset {
 public:
  virtual ~Dataset();

  /// The shape load() will return, from the parameters alone and without building the
  /// data, so that a dry run and the memory budget need not generate it (n·(d + 1)·8
  /// bytes). A generator whose size its parameters fix says it; the default, nothing,
  /// means the runner cannot tell before it loads: it then budgets the files the
  /// parameters name by their size, and loads the data to list a dry run's cells.
  [[nodiscard]] virtual std::optional<DataShape> shape(const DatasetContext& context) const;

  /// Builds or reads the data. Throws kexp::DataError for unusable input, naming the
  /// file, line and column where it applies.
  [[nodiscard]] virtual Data load(const DatasetContext& context) const = 0;
};

}  // namespace kexp
