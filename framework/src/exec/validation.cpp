// Model selection for the cells of a group: a new solver of each cell fitted on every
// validation split and scored on its held-out part, the split's inputs cut out of the
// group's K or Φ, or computed by a kernel fitted on the split when the kernel learns.
#include "exec/validation.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <utility>

#include "exec/metrics.hpp"
#include "kexp/error.hpp"
#include "plugin/plugin_call.hpp"
#include "plugin/registry.hpp"
#include "util/measure.hpp"

namespace kexp::core {

namespace {

/// The fit seed of validation split `f` of a group whose fit seed is `group_seed`: the
/// group's, mixed with the split's number (the (f + 1)-th number of SplitMix64 started
/// at the group's seed).
std::uint64_t split_seed(std::uint64_t group_seed, std::size_t f) {
  std::uint64_t z = group_seed + 0x9e3779b97f4a7c15ULL * (f + 1);
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

}  // namespace

void GroupValidation::validate(const Variant& sv, Form form, const Kernel& kernel,
                               const GroupInputs& inputs, CellResult& result, bool reaching) {
  if (data_.splits.empty()) return;
  const std::size_t count = data_.splits.size();
  arma::vec rmses(count), accuracies(count);
  const arma::vec k_diagonal =
      form == Form::Dual && !source_.make && !reaching ? arma::vec(inputs.K.diag()) : arma::vec();
  Stopwatch watch;
  for (std::size_t f = 0; f < count; ++f) {
    const ValidationSplit& split = data_.splits[f];
    const arma::vec y_fit = data_.y_train.elem(split.fit);
    const arma::vec y_held = data_.y_train.elem(split.held_out);
    const std::string where =
        count > 1 ? fmt::format("validation fold {} of {}", f + 1, count) : "the validation split";
    arma::mat inputs_fit, inputs_held, points_fit, points_held;
    arma::vec diagonal;
    SharedState state;
    TrainingData train;
    train.targets = &y_fit;
    train.task = data_.task;
    train.shared = &state;
    TestData test;
    if (reaching) {
      inputs_fit = data_.X_train.cols(split.fit);
      inputs_held = data_.X_train.cols(split.held_out);
      train.kernel = source_.make ? split_kernel(f, where).get() : &kernel;
      train.inputs = &inputs_fit;
      test.kernel = train.kernel;
      test.inputs = &inputs_held;
    } else if (source_.make) {
      split_inputs_refitted(f, form, where, inputs_fit, inputs_held, diagonal);
    } else if (form == Form::Dual) {
      inputs_fit = inputs.K.submat(split.fit, split.fit);
      inputs_held = inputs.K.submat(split.fit, split.held_out);
      diagonal = k_diagonal.elem(split.held_out);
    } else {
      inputs_fit = inputs.Phi.cols(split.fit);
      inputs_held = inputs.Phi.cols(split.held_out);
    }
    if (reaching) {
      // set above
    } else if (form == Form::Dual) {
      train.gram = &inputs_fit;
      train.gram_writable = true;
      test.gram = &inputs_held;
      test.gram_diagonal = &diagonal;
      if (sv.plugin->has_flag(flags::learns_kernel)) {
        points_fit = data_.X_train.cols(split.fit);
        points_held = data_.X_train.cols(split.held_out);
        train.kernel = test.kernel = source_.make ? split_kernel(f, where).get() : &kernel;
        train.inputs = &points_fit;
        test.inputs = &points_held;
      }
    } else {
      train.features = &inputs_fit;
      test.features = &inputs_held;
    }
    const auto in_solver = [&](const std::string& doing, auto&& call) -> decltype(auto) {
      return call_plugin("solver", sv.plugin->name(), doing + " on " + where, call);
    };
    std::shared_ptr<Solver> solver = create_solver(*sv.plugin, sv.params);
    SolverReport report;
    in_solver("fitting", [&] { solver->fit(train, report); });
    const Prediction p = in_solver("predicting", [&] { return solver->predict(test, report); });
    if (p.mean.n_elem != y_held.n_elem) {
      throw Error(fmt::format("solver '{}' returned {} predictions for the {} points of {}",
                              sv.plugin->name(), p.mean.n_elem, y_held.n_elem, where));
    }
    in_solver("predicting", [&] { require_finite(p.mean, "the validation predictions"); });
    rmses[f] = rmse(y_held, p.mean);
    require_finite_error(rmses[f], "RMSE on " + where, data_.y_train);
    if (const auto a = task_accuracy(data_.task, y_held, p.mean)) accuracies[f] = *a;
  }
  result.validation_seconds = watch.seconds();
  score_validation(rmses, accuracies, data_.task, result);
}

void GroupValidation::split_inputs_refitted(std::size_t f, Form form, const std::string& where,
                                            arma::mat& inputs_fit, arma::mat& inputs_held,
                                            arma::vec& diagonal) {
  const ValidationSplit& split = data_.splits[f];
  const arma::mat X_fit = data_.X_train.cols(split.fit);
  const arma::mat X_held = data_.X_train.cols(split.held_out);
  const std::shared_ptr<Kernel>& k = split_kernel(f, where);
  call_plugin("kernel", source_.name, "computing the inputs of " + where, [&] {
    if (form == Form::Dual) {
      k->gram(X_fit, inputs_fit);
      k->gram(X_fit, X_held, inputs_held);
      diagonal = k->diagonal(X_held);
      require_finite(inputs_fit, "the Gram matrix of " + where);
      require_finite(inputs_held, "the cross Gram matrix of " + where);
    } else {
      k->feature_map()->features(X_fit, inputs_fit);
      k->feature_map()->features(X_held, inputs_held);
      require_finite(inputs_fit, "the features of " + where);
      require_finite(inputs_held, "the held-out features of " + where);
    }
  });
}

const std::shared_ptr<Kernel>& GroupValidation::split_kernel(std::size_t f,
                                                             const std::string& where) {
  if (split_kernels_.size() != data_.splits.size()) {
    split_kernels_.resize(data_.splits.size());
    split_failures_.resize(data_.splits.size());
  }
  if (split_failures_[f]) std::rethrow_exception(split_failures_[f]);
  std::shared_ptr<Kernel>& k = split_kernels_[f];
  if (!k) {
    const ValidationSplit& split = data_.splits[f];
    const arma::mat X_fit = data_.X_train.cols(split.fit);
    const arma::vec y_fit = data_.y_train.elem(split.fit);
    std::shared_ptr<Kernel> fitted = source_.make();
    try {
      call_plugin("kernel", source_.name, "fitting the kernel on " + where, [&] {
        fitted->fit(KernelFitData{&X_fit, &y_fit, split_seed(source_.fit_seed, f),
                                  data_.alphabet.size(), source_.base_dir});
      });
    } catch (...) {
      split_failures_[f] = std::current_exception();
      throw;
    }
    k = std::move(fitted);
  }
  return k;
}

}  // namespace kexp::core
