// Turning what a dataset plugin returns into the train and test sets a cell uses: the
// data's shapes, finite values and sequence encoding checked, the test part split off by
// a seeded shuffle unless the dataset has its own, standardization, and the validation
// splits of the training part.
#include "exec/data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <random>

#include "kexp/error.hpp"
#include "plugin/plugin_call_trace.hpp"
#include "util/seed.hpp"
#include "util/text.hpp"

namespace kexp::core {

namespace {

void check_shapes(const arma::mat& X, const arma::vec& y, const std::string& label,
                  const char* part) {
  if (X.n_cols != y.n_elem) {
    throw DataError(fmt::format("{}: the {} set has {} samples (columns of X) but {} targets",
                                label, part, X.n_cols, y.n_elem));
  }
  if (!X.is_finite() || !y.is_finite()) {
    throw DataError(fmt::format("{}: the {} set has non-finite values", label, part));
  }
}

/// A sequence dataset's X: in each column, symbol indices in [0, |Σ|), then only −1.
void check_sequences(const arma::mat& X, std::size_t symbols, const std::string& label,
                     const char* part) {
  for (arma::uword j = 0; j < X.n_cols; ++j) {
    const double* column = X.colptr(j);
    bool ended = false;
    for (arma::uword t = 0; t < X.n_rows; ++t) {
      const double v = column[t];
      if (v == -1.0) {
        ended = true;
        continue;
      }
      if (ended || v < 0 || v >= static_cast<double>(symbols) || v != std::floor(v)) {
        throw DataError(fmt::format(
            "{}: sequence {} of the {} set has {} at position {}; a sequence dataset gives "
            "symbol indices 0 … {} and then only −1 past the sequence's end",
            label, j, part, v, t, symbols - 1));
      }
    }
  }
}

/// 0, …, n − 1 in the order of a Fisher–Yates shuffle with a standard engine, so that
/// it is the same everywhere.
arma::uvec shuffled(arma::uword n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  arma::uvec order = arma::regspace<arma::uvec>(0, n - 1);
  for (arma::uword i = n - 1; i > 0; --i) {
    const arma::uword j = static_cast<arma::uword>(rng() % (i + 1));
    std::swap(order[i], order[j]);
  }
  return order;
}

/// round(fraction·n) test samples (halves away from zero); throws DataError naming
/// `label` when either part would be empty.
arma::uword test_count(arma::uword n, double fraction, const std::string& label) {
  const auto n_test = static_cast<arma::uword>(std::llround(fraction * static_cast<double>(n)));
  if (n_test < 1 || n_test >= n) {
    throw DataError(
        fmt::format("{}: test_fraction {} of {} samples leaves {} for testing and {} for training; "
                    "both need at least one (use more samples or another test_fraction)",
                    label, fraction, n, n_test, n - std::min(n, n_test)));
  }
  return n_test;
}

}  // namespace

DataDims dims_of(const PreparedData& data) {
  DataDims dims;
  dims.n = static_cast<double>(data.X_train.n_cols);
  dims.m = static_cast<double>(data.X_test.n_cols);
  dims.d = static_cast<double>(data.X_train.n_rows);
  dims.input_size = static_cast<double>(input_size(data));
  dims.splits = data.splits.size();
  for (const ValidationSplit& s : data.splits) {
    dims.largest_fit = std::max(dims.largest_fit, static_cast<double>(s.fit.n_elem));
  }
  return dims;
}

DataDims planned_dims(std::size_t n, std::size_t d, double test_fraction,
                      const ValidationSpec& validation, const std::string& label) {
  const arma::uword m = test_count(n, test_fraction, label);
  DataDims dims;
  dims.n = static_cast<double>(n - m);
  dims.m = static_cast<double>(m);
  dims.d = static_cast<double>(d);
  dims.input_size = dims.d;
  if (validation.folds > 0) {
    // the smallest fold is held out of the largest fitting part
    const auto k = static_cast<std::size_t>(validation.folds);
    dims.splits = k;
    const std::size_t smallest_fold = (n - m) / k;  // folds differ in size by one at most
    dims.largest_fit = static_cast<double>((n - m) - smallest_fold);
  } else if (validation.enabled()) {
    dims.splits = 1;
    dims.largest_fit = dims.n - static_cast<double>(std::llround(validation.fraction * dims.n));
  }
  return dims;
}

std::vector<ValidationSplit> validation_splits(arma::uword n, const ValidationSpec& validation,
                                               std::uint64_t seed, const std::string& label) {
  std::vector<ValidationSplit> out;
  if (!validation.enabled()) return out;
  if (validation.folds > 0) {
    const auto k = static_cast<arma::uword>(validation.folds);
    if (n < k || n < 2) {
      throw DataError(
          validation.where,
          fmt::format(
              "{}: folds: {} needs at least {} training samples, one per fold, and there are {} "
              "(use fewer folds or more samples)",
              label, k, std::max<arma::uword>(k, 2), n));
    }
    const arma::uvec order = shuffled(n, seed);
    arma::uvec fold(n);
    for (arma::uword i = 0; i < n; ++i) fold[order[i]] = i % k;
    for (arma::uword j = 0; j < k; ++j) {
      out.push_back({arma::find(fold != j), arma::find(fold == j)});
    }
    return out;
  }
  const double f = validation.fraction;
  const auto held = static_cast<arma::uword>(std::llround(f * static_cast<double>(n)));
  if (held < 1 || held >= n) {
    throw DataError(
        validation.where,
        fmt::format(
            "{}: validation_fraction {} of {} training samples holds out {} and fits on {}; both "
            "need at least one (use more samples or another validation_fraction)",
            label, f, n, held, n - std::min(n, held)));
  }
  const arma::uvec order = shuffled(n, seed);
  out.push_back({arma::sort(order.tail(n - held)), arma::sort(order.head(held))});
  return out;
}

PreparedData prepare_data(Data data, const Params& params, std::uint64_t seed,
                          const std::string& label, const ValidationSpec& validation) {
  check_shapes(data.X, data.y, label, "training");
  PreparedData out;
  out.task = data.task;
  if (!data.alphabet.empty()) {
    for (std::size_t i = 0; i < data.alphabet.size(); ++i) {
      if (!is_valid_utf8(data.alphabet[i])) {
        throw DataError(fmt::format(
            "{}: symbol {} of the alphabet is not valid UTF-8; symbols are written to the "
            "result folder, so they must be UTF-8 (convert the file's encoding)",
            label, i));
      }
    }
    check_sequences(data.X, data.alphabet.size(), label, "training");
    if (data.has_test) check_sequences(data.X_test, data.alphabet.size(), label, "test");
    out.alphabet = std::move(data.alphabet);
  }
  if (data.has_test) {
    check_shapes(data.X_test, data.y_test, label, "test");
    if (data.X_test.n_rows != data.X.n_rows) {
      throw DataError(fmt::format("{}: the test set has {} features, the training set {}", label,
                                  data.X_test.n_rows, data.X.n_rows));
    }
    out.X_train = std::move(data.X);
    out.y_train = std::move(data.y);
    out.X_test = std::move(data.X_test);
    out.y_test = std::move(data.y_test);
  } else {
    const arma::uword n = data.X.n_cols;
    const arma::uword n_test = test_count(n, params.real("test_fraction"), label);
    const arma::uvec order = shuffled(n, seed);
    const arma::uvec test = arma::sort(order.head(n_test));
    const arma::uvec train = arma::sort(order.tail(n - n_test));
    out.X_train = data.X.cols(train);
    out.y_train = data.y.elem(train);
    out.X_test = data.X.cols(test);
    out.y_test = data.y.elem(test);
  }
  const std::string& standardize = params.string("standardize");
  if (standardize != "false" && out.X_train.n_cols > 0) {
    const arma::vec mean = arma::mean(out.X_train, 1);
    // Armadillo's norm_type 0 divides by n − 1 (the sample deviation), 1 by n.
    arma::vec scale = arma::stddev(out.X_train, standardize == "population" ? 1 : 0, 1);
    scale.transform([](double s) { return s > 0 ? s : 1.0; });
    out.X_train.each_col() -= mean;
    out.X_train.each_col() /= scale;
    out.X_test.each_col() -= mean;
    out.X_test.each_col() /= scale;
  }
  out.splits =
      validation_splits(out.X_train.n_cols, validation, derive_seed(seed, "validation", 0), label);
  return out;
}

PreparedData load_data(const Dataset& dataset, const DatasetContext& context, const Params& params,
                       std::uint64_t seed, const std::string& label,
                       const ValidationSpec& validation) {
  // Running out of memory names the data's size, as the plugin states it before it
  // builds the data.
  const auto out_of_memory = [&](const char* doing) {
    std::string size;
    try {
      if (const auto shape = dataset.shape(context)) {
        size = fmt::format(
            " (n = {}, d = {}: X and y take {:.3g} GB)", shape->n, shape->d,
            8.0 * static_cast<double>(shape->n) * static_cast<double>(shape->d + 1) / 1e9);
      }
    } catch (...) {
      size.clear();  // a plugin that cannot state its shape: the message without it
    }
    return DataError(fmt::format(
        "dataset {} ran out of memory while {}{}; use fewer samples or features, or free memory "
        "(--max-memory budgets a run before it loads anything)",
        label, doing, size));
  };
  Data raw;
  try {
    // Not held to the time limit of a plugin call: reading data may take long.
    const PluginCallNote call(fmt::format("loading dataset {}", label), false);
    raw = dataset.load(context);
  } catch (const DataError&) {
    throw;
  } catch (const ConfigError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw out_of_memory("generating or reading its data");
  } catch (const std::exception& err) {
    throw DataError(fmt::format("dataset {} could not be loaded: {}", label, err.what()));
  }
  try {
    return prepare_data(std::move(raw), params, seed, label, validation);
  } catch (const std::bad_alloc&) {
    throw out_of_memory("splitting off its test part and standardizing");
  }
}

}  // namespace kexp::core
