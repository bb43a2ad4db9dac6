#include "exec/data.hpp"

#include <fmt/format.h>

#include <cmath>
#include <random>

#include "kexp/error.hpp"

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

}  // namespace

PreparedData prepare_data(Data data, const Params& params, std::uint64_t seed,
                          const std::string& label) {
  check_shapes(data.X, data.y, label, "training");
  PreparedData out;
  out.task = data.task;
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
    const double fraction = params.real("test_fraction");
    const auto n_test = static_cast<arma::uword>(std::llround(fraction * static_cast<double>(n)));
    if (n_test < 1 || n_test >= n) {
      throw DataError(fmt::format(
          "{}: test_fraction {} of {} samples leaves {} for testing and {} for training; "
          "both need at least one (use more samples or another test_fraction)",
          label, fraction, n, n_test, n - std::min(n, n_test)));
    }
    // Fisher–Yates with a standard engine, so the split is the same everywhere.
    std::mt19937_64 rng(seed);
    arma::uvec order = arma::regspace<arma::uvec>(0, n - 1);
    for (arma::uword i = n - 1; i > 0; --i) {
      const arma::uword j = static_cast<arma::uword>(rng() % (i + 1));
      std::swap(order[i], order[j]);
    }
    const arma::uvec test = arma::sort(order.head(n_test));
    const arma::uvec train = arma::sort(order.tail(n - n_test));
    out.X_train = data.X.cols(train);
    out.y_train = data.y.elem(train);
    out.X_test = data.X.cols(test);
    out.y_test = data.y.elem(test);
  }
  if (params.boolean("standardize") && out.X_train.n_cols > 0) {
    const arma::vec mean = arma::mean(out.X_train, 1);
    arma::vec scale = arma::stddev(out.X_train, 0, 1);
    scale.transform([](double s) { return s > 0 ? s : 1.0; });
    out.X_train.each_col() -= mean;
    out.X_train.each_col() /= scale;
    out.X_test.each_col() -= mean;
    out.X_test.each_col() /= scale;
  }
  return out;
}

PreparedData load_data(const Dataset& dataset, const DatasetContext& context, const Params& params,
                       std::uint64_t seed, const std::string& label) {
  Data raw;
  try {
    raw = dataset.load(context);
  } catch (const DataError&) {
    throw;
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& err) {
    throw DataError(fmt::format("dataset {} could not be loaded: {}", label, err.what()));
  }
  return prepare_data(std::move(raw), params, seed, label);
}

}  // namespace kexp::core
