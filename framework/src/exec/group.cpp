#include "exec/group.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <memory>
#include <utility>

#include "exec/metrics.hpp"
#include "kexp/error.hpp"
#include "plugin/plugin_call.hpp"
#include "plugin/registry.hpp"
#include "sweep/pairing.hpp"
#include "util/measure.hpp"

namespace kexp::core {

namespace {

/// What the cells of a group share.
struct GroupInputs {
  bool have_gram = false, have_cross = false, have_features = false, have_test_features = false;
  arma::mat K;        ///< K(X, X)
  arma::mat K_cross;  ///< K(X, X*), unless it lives in the buffer (cross_in_buffer)
  /// K(X, X*) built in the memory K gave back to the buffer.
  std::unique_ptr<arma::mat> cross_in_buffer;

  /// Where K(X, X*) is.
  arma::mat& cross() { return cross_in_buffer ? *cross_in_buffer : K_cross; }
  arma::vec k_diag;  ///< k(x*, x*)
  PhaseTiming gram_timing, cross_timing;
  arma::mat Phi, Phi_test;
  PhaseTiming feature_timing, feature_test_timing;
  std::size_t feature_dim = 0;
  /// What computing K, the cross block, Φ or Φ* threw: the group's later cells fail with
  /// the same message instead of computing it again.
  std::exception_ptr gram_failure, cross_failure, features_failure, test_features_failure;
  /// One per solver entry, for the cells of that entry in this group.
  std::map<std::size_t, SharedState> shared;
  /// Test predictions of the cells that finished, for primal-dual pairs.
  std::vector<std::pair<const GroupCell*, arma::vec>> predictions;

  /// K is no longer needed: its memory goes back to the buffer, for K(X, X*) and for the
  /// next group's K.
  void release_gram(GramBuffer& buffer) {
    if (have_gram) buffer.memory = std::move(K);
    K.reset();
    have_gram = false;
  }

  /// No dual cell is left in the group: K, K(X, X*) and the buffer are freed, so that the
  /// primal cells after them run in the memory they are budgeted for.
  void release_duals(GramBuffer& buffer) {
    release_gram(buffer);
    cross_in_buffer.reset();
    K_cross.reset();
    k_diag.reset();
    have_cross = false;
    buffer.memory.reset();
  }
};

struct Sharing {
  SharedState* state;
  std::size_t size, position;
};

/// Throws NumericError when `values` holds entries that are not finite, saying how many:
/// a NaN or an infinity must fail the cell, never be written as a result. With
/// Triangle::Lower, only the lower triangle and the diagonal of the square `values` hold
/// results and are checked.
void require_finite(const arma::mat& values, std::string_view what,
                    Triangle part = Triangle::Both) {
  std::size_t bad = 0, entries = values.n_elem;
  std::string where(what);
  if (part == Triangle::Lower) {
    for (arma::uword j = 0; j < values.n_cols; ++j) {
      const double* col = values.colptr(j);
      for (arma::uword i = j; i < values.n_rows; ++i) bad += std::isfinite(col[i]) ? 0 : 1;
    }
    entries = values.n_rows * (values.n_rows + 1) / 2;
    where = fmt::format("the lower triangle of {}", what);
  } else if (!values.is_finite()) {
    bad = static_cast<std::size_t>(
        std::count_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }));
  }
  if (bad == 0) return;
  throw NumericError(fmt::format(
      "{} of the {} entries of {} are not finite (NaN or infinite); check the parameters "
      "against the scale of the data (an overflow, a σ far too small, a λ or noise of inf)",
      bad, entries, where));
}

/// A dual cell that reaches the kernel: no K is built for it.
bool reaches_kernel(const GroupCell& g) { return reaches_kernel(*g.cell, *g.solver); }

/// A cell that reads the group's K.
bool uses_gram(const GroupCell& g) { return reads_gram(*g.cell, *g.solver); }

SolverSide side_of(const Variant& solver, Form form) {
  SolverSide s;
  s.form = to_string(form);
  for (const auto& [name, value] : solver.params.values()) s.params[name] = format_value(value);
  return s;
}

class GroupExecution {
 public:
  GroupExecution(const GroupKernel& kernel, const PreparedData& data, const TimingSpec& timing,
                 GramBuffer& buffer)
      : source_(kernel), kernel_name_(kernel.name), data_(data), timing_(timing), buffer_(buffer) {}

  void run(const std::vector<GroupCell>& cells, const GroupCallbacks& callbacks) {
    std::map<std::size_t, std::size_t> group_size, group_position;
    for (const GroupCell& g : cells) ++group_size[g.solver->component];
    const std::vector<GramPlace> places = gram_places(cells);
    const auto readers =
        static_cast<std::size_t>(std::count_if(cells.begin(), cells.end(), uses_gram));
    // K's only user, given it to overwrite, may need only its lower triangle; the
    // validation folds cut blocks on both sides of the diagonal.
    const std::size_t last_reader = last_gram_reader(cells);
    if (readers == 1 && !cells[last_reader].refusal && data_.splits.empty() &&
        cells[last_reader].solver->plugin->has_flag(flags::lower_triangle)) {
      gram_part_ = Triangle::Lower;
    }
    // The last group's K memory serves this group's K when it has the same size and the
    // group's first cell to run computes K; it is freed before anything else is allocated
    // otherwise.
    const arma::uword n = data_.X_train.n_cols;
    const auto first =
        std::find_if(cells.begin(), cells.end(), [](const GroupCell& g) { return !g.refusal; });
    if (first != cells.end() && uses_gram(*first) && buffer_.memory.n_rows == n &&
        buffer_.memory.n_cols == n) {
      in_.K = std::move(buffer_.memory);
    }
    buffer_.memory.reset();
    bool duals_released = false;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const GroupCell& g = cells[i];
      if (places[i].after_gram && !duals_released) {
        // No cell that reads K is left: K's memory, and K(X, X*) in it, must not stay
        // beside Φ or a solver that reaches the kernel.
        in_.release_duals(buffer_);
        duals_released = true;
      }
      CellResult result;
      result.n_train = data_.X_train.n_cols;
      result.n_test = data_.X_test.n_cols;
      result.d = data_.X_train.n_rows;
      const bool last_dual = places[i].last_reader;
      if (g.refusal) {
        result.status = CellResult::Status::Refused;
        result.error = *g.refusal;
      } else {
        if (callbacks.started) callbacks.started(*g.cell);
        try {
          reset_peak_rss();
          const std::size_t entry = g.solver->component;
          const Sharing sharing{&in_.shared[entry], group_size[entry], group_position[entry]++};
          run_cell(g, last_dual, sharing, result);
          pair_with_earlier(g, result);
          in_.predictions.emplace_back(&g, result.prediction.mean);
        } catch (...) {
          // Plugin code is called through call_plugin(), so the message names the plugin
          // and what it was doing; anything thrown at all fails this cell only.
          result.status = CellResult::Status::Failed;
          result.error = current_exception_message();
        }
      }
      result.peak_rss_bytes = peak_rss_bytes();
      if (!callbacks.done(*g.cell, std::move(result))) return;
    }
  }

 private:
  /// The group's kernel, fitted on the training part first when it learns. What the fit
  /// throws fails every cell of the group.
  const Kernel& fitted_kernel(CellResult& result) {
    active_ = source_.kernel;
    if (!source_.make) return *active_;
    if (!fitted_) {
      in_kernel("fitting the kernel to the training points", fit_failure_, [&] {
        const KernelFitData fit_data{&data_.X_train, &data_.y_train, source_.fit_seed,
                                     data_.alphabet.size(), source_.base_dir};
        std::shared_ptr<Kernel> fitted = source_.make();
        fit_timing_ = measure(
            timing_, [&] { fitted->fit(fit_data); },
            [&] { return [&, again = source_.make()] { again->fit(fit_data); }; });
        fitted_ = std::move(fitted);
      });
    }
    result.kernel_fit = fit_timing_;
    active_ = fitted_.get();
    return *active_;
  }

  void run_cell(const GroupCell& g, bool last_dual, const Sharing& sharing, CellResult& result) {
    const std::size_t n = data_.X_train.n_cols, m = data_.X_test.n_cols, d = data_.X_train.n_rows;
    const Kernel& kernel = fitted_kernel(result);
    TrainingData train;
    train.targets = &data_.y_train;
    train.task = data_.task;
    train.shared = sharing.state;
    train.group_size = sharing.size;
    train.group_position = sharing.position;
    TestData test;
    double flops = 0, bytes = 0;
    if (reaches_kernel(g)) {
      // The solver computes what it needs from the kernel and the points: no K, no
      // K(X, X*), and no phase of the group's to time.
      validate(*g.solver, Form::Dual, result, &kernel);
      train.kernel = &kernel;
      train.inputs = &data_.X_train;
      test.kernel = &kernel;
      test.inputs = &data_.X_test;
      bytes += 8.0 * static_cast<double>(d * (n + m));
      fit_and_predict(
          g, train, test, flops, bytes, [](const PluginRecord&) { return PhaseTiming{}; }, result);
    } else if (g.cell->form == Form::Dual) {
      if (!in_.have_gram) {
        in_kernel("computing the Gram matrix", in_.gram_failure, [&] {
          in_.gram_timing =
              measure(timing_, [&] { kernel.gram(data_.X_train, in_.K, gram_part_); });
        });
        in_kernel("computing the Gram matrix", in_.gram_failure,
                  [&] { require_finite(in_.K, "the Gram matrix K(X, X)", gram_part_); });
        in_.have_gram = true;
      }
      result.gram = in_.gram_timing;
      validate(*g.solver, Form::Dual, result);
      flops += kernel.gram_flops(n, n, d) + kernel.gram_flops(n, m, d);
      bytes += 8.0 * static_cast<double>(n * n + n * m);
      // The group's last dual cell may factor K in place; the others must leave it intact.
      train.gram = &in_.K;
      train.gram_writable = last_dual;
      train.gram_lower_only = gram_part_ == Triangle::Lower;
      test.gram = &in_.cross();
      test.gram_diagonal = &in_.k_diag;
      if (g.solver->plugin->has_flag(flags::learns_kernel)) {
        train.kernel = test.kernel = &kernel;
        train.inputs = &data_.X_train;
        test.inputs = &data_.X_test;
      }
      // K(X, X*) is built after the fit, once per group: the last cell first releases K
      // unless its solver reads K again when predicting.
      const auto test_inputs = [&](const PluginRecord& solver) {
        if (last_dual && !solver.has_flag(flags::keeps_gram)) in_.release_gram(buffer_);
        if (!in_.have_cross) {
          if (!in_.have_gram && buffer_.memory.n_elem >= n * m && m > 0) {
            // K is gone: K(X, X*) takes the memory it left instead of new memory.
            in_.cross_in_buffer =
                std::make_unique<arma::mat>(buffer_.memory.memptr(), n, m, false, true);
            test.gram = &in_.cross();
          } else if (!in_.have_gram) {
            // Too small for K(X, X*) (more test points than training points): freed, so
            // that K's memory and K(X, X*) are never held together.
            buffer_.memory.reset();
          }
          in_kernel("computing the cross Gram matrix K(X, X*)", in_.cross_failure, [&] {
            in_.cross_timing = measure(timing_, [&] {
              kernel.gram(data_.X_train, data_.X_test, in_.cross());
              in_.k_diag = kernel.diagonal(data_.X_test);
            });
            require_finite(in_.cross(), "the cross Gram matrix K(X, X*)");
            require_finite(in_.k_diag, "the diagonal k(x*, x*)");
          });
          in_.have_cross = true;
        }
        return in_.cross_timing;
      };
      fit_and_predict(g, train, test, flops, bytes, test_inputs, result);
      if (last_dual) in_.release_gram(buffer_);
    } else {
      const FeatureMap& map = *kernel.feature_map();
      if (!in_.have_features) {
        in_kernel("computing the features of the training points", in_.features_failure, [&] {
          in_.feature_timing = measure(timing_, [&] { map.features(data_.X_train, in_.Phi); });
        });
        in_kernel("computing the features of the training points", in_.features_failure,
                  [&] { require_finite(in_.Phi, "the features Φ(X)"); });
        in_.feature_dim = in_.Phi.n_rows;
        in_.have_features = true;
      }
      result.features = in_.feature_timing;
      result.feature_dim = in_.feature_dim;
      validate(*g.solver, Form::Primal, result);
      flops += map.flops(n, d) + map.flops(m, d);
      bytes += 8.0 * static_cast<double>(in_.feature_dim * (n + m));
      train.features = &in_.Phi;
      test.features = &in_.Phi_test;
      const auto test_inputs = [&](const PluginRecord&) {
        if (!in_.have_test_features) {
          in_kernel("computing the features of the test points", in_.test_features_failure, [&] {
            in_.feature_test_timing =
                measure(timing_, [&] { map.features(data_.X_test, in_.Phi_test); });
            require_finite(in_.Phi_test, "the features Φ(X*)");
          });
          in_.have_test_features = true;
        }
        return in_.feature_test_timing;
      };
      fit_and_predict(g, train, test, flops, bytes, test_inputs, result);
    }
  }

  /// Model selection: fits a new solver of the cell on each validation split of the
  /// training part and predicts its held-out part. The split's K, cross block and
  /// diagonal (or Φ columns) are cut out of the group's K or Φ, so that validation costs
  /// no kernel evaluation; the solver may overwrite its copy. Called before the cell's
  /// own fit, while K or Φ is intact. A kernel that learns is fitted again on each
  /// split's fit part instead (once per group), and the split's inputs computed from it.
  ///
  /// A solver that reaches the kernel (`reaching`, the kernel it gets) is given each
  /// split's points instead, and the kernel (a kernel that learns: the split's own).
  void validate(const Variant& sv, Form form, CellResult& result,
                const Kernel* reaching = nullptr) {
    if (data_.splits.empty()) return;
    const std::size_t count = data_.splits.size();
    arma::vec rmses(count), accuracies(count);
    const arma::vec k_diagonal = form == Form::Dual && !source_.make && reaching == nullptr
                                     ? arma::vec(in_.K.diag())
                                     : arma::vec();
    Stopwatch watch;
    for (std::size_t f = 0; f < count; ++f) {
      const ValidationSplit& split = data_.splits[f];
      const arma::vec y_fit = data_.y_train.elem(split.fit);
      const arma::vec y_held = data_.y_train.elem(split.held_out);
      const std::string where = count > 1 ? fmt::format("validation fold {} of {}", f + 1, count)
                                          : "the validation split";
      arma::mat inputs_fit, inputs_held, points_fit, points_held;
      arma::vec diagonal;
      SharedState state;
      TrainingData train;
      train.targets = &y_fit;
      train.task = data_.task;
      train.shared = &state;
      TestData test;
      if (reaching != nullptr) {
        inputs_fit = data_.X_train.cols(split.fit);
        inputs_held = data_.X_train.cols(split.held_out);
        train.kernel = source_.make ? split_kernel(f, where).get() : reaching;
        train.inputs = &inputs_fit;
        test.kernel = train.kernel;
        test.inputs = &inputs_held;
      } else if (source_.make) {
        split_inputs_refitted(f, form, where, inputs_fit, inputs_held, diagonal);
      } else if (form == Form::Dual) {
        inputs_fit = in_.K.submat(split.fit, split.fit);
        inputs_held = in_.K.submat(split.fit, split.held_out);
        diagonal = k_diagonal.elem(split.held_out);
      } else {
        inputs_fit = in_.Phi.cols(split.fit);
        inputs_held = in_.Phi.cols(split.held_out);
      }
      if (reaching != nullptr) {
        // set above
      } else if (form == Form::Dual) {
        train.gram = &inputs_fit;
        train.gram_writable = true;
        test.gram = &inputs_held;
        test.gram_diagonal = &diagonal;
        if (sv.plugin->has_flag(flags::learns_kernel)) {
          points_fit = data_.X_train.cols(split.fit);
          points_held = data_.X_train.cols(split.held_out);
          train.kernel = test.kernel =
              source_.make ? split_kernel(f, where).get() : &fitted_kernel(result);
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
      require_finite_error(rmses[f], "RMSE on " + where);
      if (data_.task == Task::Classification) accuracies[f] = accuracy(y_held, p.mean);
    }
    result.validation_seconds = watch.seconds();
    result.validation_rmse = arma::mean(rmses);
    if (count > 1) result.validation_rmse_std = arma::stddev(rmses);
    if (data_.task == Task::Classification) {
      result.validation_accuracy = arma::mean(accuracies);
      if (count > 1) result.validation_accuracy_std = arma::stddev(accuracies);
    }
  }

  /// A kernel that learns, on validation split `f`: a kernel of the split's own, fitted on
  /// its fit part (kept for the group's later cells), gives K of the fit part, the cross
  /// block and the held-out diagonal (dual) or the two parts' Φ (primal).
  void split_inputs_refitted(std::size_t f, Form form, const std::string& where,
                             arma::mat& inputs_fit, arma::mat& inputs_held, arma::vec& diagonal) {
    const ValidationSplit& split = data_.splits[f];
    const arma::mat X_fit = data_.X_train.cols(split.fit);
    const arma::mat X_held = data_.X_train.cols(split.held_out);
    const std::shared_ptr<Kernel>& k = split_kernel(f, where);
    call_plugin("kernel", kernel_name_, "computing the inputs of " + where, [&] {
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

  /// A kernel that learns, fitted on validation split `f`'s fit part: made and fitted the
  /// first time the group asks, then kept.
  /// What the fit threw is kept and thrown again to the group's later cells.
  const std::shared_ptr<Kernel>& split_kernel(std::size_t f, const std::string& where) {
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
        call_plugin("kernel", kernel_name_, "fitting the kernel on " + where, [&] {
          fitted->fit(KernelFitData{&X_fit, &y_fit, derive_split_seed(f), data_.alphabet.size(),
                                    source_.base_dir});
        });
      } catch (...) {
        split_failures_[f] = std::current_exception();
        throw;
      }
      k = std::move(fitted);
    }
    return k;
  }

  /// The fit seed of validation split `f`: the group's, mixed with the split's number.
  [[nodiscard]] std::uint64_t derive_split_seed(std::size_t f) const {
    std::uint64_t z = source_.fit_seed + 0x9e3779b97f4a7c15ULL * (f + 1);
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31U);
  }

  /// Fits, then builds the test inputs (`test_inputs`, given the solver's plugin, returns
  /// their timing, counted in predict), then predicts.
  template <class TestInputs>
  void fit_and_predict(const GroupCell& g, const TrainingData& train, const TestData& test,
                       double flops, double bytes, const TestInputs& test_inputs,
                       CellResult& result) {
    const Variant& sv = *g.solver;
    // A fit that may overwrite K is measured again on a second K: only where it fits.
    TimingSpec fit_timing = timing_;
    if (train.gram_writable && !g.room_for_second_gram) fit_timing.max_measurements = 1;
    std::shared_ptr<Solver> solver = create_solver(*sv.plugin, sv.params);
    const auto in_solver = [&](std::string_view doing, auto&& f) -> decltype(auto) {
      return call_plugin("solver", sv.plugin->name(), doing, f);
    };
    SolverReport report;
    // The shared state as this fit finds it, for the fits that measure it again.
    const SharedState shared_before = train.shared != nullptr ? *train.shared : SharedState();
    arma::mat K_again;  // K for a measurement that may overwrite it
    result.fit = measure(
        fit_timing, [&] { in_solver("fitting", [&] { solver->fit(train, report); }); },
        [&] {
          if (train.gram_writable) {
            // The first fit may have overwritten K, which its solver may still read when
            // it predicts: the measurement gets K of its own, computed again, untimed.
            in_kernel("computing the Gram matrix", in_.gram_failure,
                      [&] { active_->gram(data_.X_train, K_again, gram_part_); });
          }
          return
              [&, shared = shared_before, other = create_solver(*sv.plugin, sv.params)]() mutable {
                TrainingData again = train;
                again.shared = &shared;
                if (train.gram_writable) again.gram = &K_again;
                SolverReport ignored;
                in_solver("fitting", [&] { other->fit(again, ignored); });
              };
        });
    const PhaseTiming test_input_timing = test_inputs(*sv.plugin);  // count 0: none built
    Prediction prediction;
    const PhaseTiming predict_timing = measure(
        timing_,
        [&] {
          prediction = in_solver("predicting", [&] { return solver->predict(test, report); });
        },
        [&] {
          return [&, ignored = SolverReport()]() mutable {
            (void)in_solver("predicting", [&] { return solver->predict(test, ignored); });
          };
        });
    result.predict =
        test_input_timing.count > 0 ? test_input_timing.then(predict_timing) : predict_timing;
    if (prediction.mean.n_elem != data_.y_test.n_elem) {
      throw Error(fmt::format("solver '{}' returned {} predictions for {} test points",
                              sv.plugin->name(), prediction.mean.n_elem, data_.y_test.n_elem));
    }
    in_solver("predicting", [&] {
      require_finite(prediction.mean, "the test predictions");
      require_finite(prediction.var_f, "the predictive variances var_f");
      require_finite(prediction.var_y, "the predictive variances var_y");
    });
    // Training error: from the solver when it has the fitted values, else by predicting
    // on the training inputs while they are intact.
    arma::vec fitted = report.fitted;
    const bool inputs_intact = train.features != nullptr || !train.gram_writable;
    if (fitted.n_elem != data_.y_train.n_elem && inputs_intact) {
      TestData on_train;
      on_train.features = train.features;
      on_train.gram = train.gram;
      on_train.kernel = train.kernel;
      on_train.inputs = train.inputs;
      const arma::vec diag = train.gram != nullptr ? arma::vec(train.gram->diag()) : arma::vec();
      on_train.gram_diagonal = train.gram != nullptr ? &diag : nullptr;
      SolverReport ignored;
      fitted = in_solver("predicting on the training points",
                         [&] { return solver->predict(on_train, ignored).mean; });
    }
    if (fitted.n_elem == data_.y_train.n_elem) {
      in_solver("predicting on the training points",
                [&] { require_finite(fitted, "the predictions on the training points"); });
    }
    result.test_rmse = rmse(data_.y_test, prediction.mean);
    if (fitted.n_elem == data_.y_train.n_elem) result.train_rmse = rmse(data_.y_train, fitted);
    if (data_.task == Task::Classification) {
      result.test_accuracy = accuracy(data_.y_test, prediction.mean);
    }
    for (const auto& [name, value] : {std::pair{"test RMSE", result.test_rmse},
                                      std::pair{"training RMSE", result.train_rmse}}) {
      if (value) require_finite_error(*value, name);
    }
    result.flops = flops + report.fit_flops + report.predict_flops;
    result.matrix_bytes = bytes + report.matrix_bytes;
    if (report.iterations >= 0) result.iterations = report.iterations;
    result.converged = report.converged;
    result.metrics = std::move(report.metrics);
    result.learned = std::move(report.learned);
    result.loss_curve = std::move(report.loss_curve);
    result.prediction = std::move(prediction);
  }

  /// Finite predictions can still give an error that is not (targets near the largest
  /// double): such a figure is no result. Throws NumericError naming `what`.
  void require_finite_error(double value, const std::string& what) const {
    if (std::isfinite(value)) return;
    throw NumericError(fmt::format(
        "the {} is {} although every prediction is finite: the targets (largest |y| = {}) "
        "are too large to square in double precision; rescale them",
        what, value, arma::abs(data_.y_train).max()));
  }

  /// The largest difference between this cell's predictions and those of its earlier
  /// counterpart in the other form (the first one, in run order), while both are in
  /// memory.
  void pair_with_earlier(const GroupCell& g, CellResult& result) const {
    const arma::vec& prediction = result.prediction.mean;
    const SolverSide mine = side_of(*g.solver, g.cell->form);
    for (const auto& [other, p] : in_.predictions) {
      if (!counterparts(mine, side_of(*other->solver, other->cell->form))) continue;
      if (p.n_elem != prediction.n_elem) continue;
      result.paired_with = other->cell->id;
      result.prediction_max_diff = prediction.n_elem > 0 ? arma::abs(prediction - p).max() : 0.0;
      return;
    }
  }

  /// Runs f(), a call into the kernel that computes an input the group shares; what it
  /// throws names the kernel and `doing`, and is kept in `failure` and thrown again to
  /// the cells after this one.
  template <class F>
  void in_kernel(std::string_view doing, std::exception_ptr& failure, const F& f) const {
    if (failure) std::rethrow_exception(failure);
    try {
      call_plugin("kernel", kernel_name_, doing, f);
    } catch (...) {
      failure = std::current_exception();
      throw;
    }
  }

  const GroupKernel& source_;
  std::string kernel_name_;
  /// A kernel that learns: the one fitted on the training part, its timing and what its
  /// fit threw; and one fitted on each validation split's fit part.
  std::shared_ptr<Kernel> fitted_;
  PhaseTiming fit_timing_;
  std::exception_ptr fit_failure_;
  std::vector<std::shared_ptr<Kernel>> split_kernels_;
  std::vector<std::exception_ptr> split_failures_;
  /// The kernel the group's cells use: the fixed one or fitted_.
  const Kernel* active_ = nullptr;
  const PreparedData& data_;
  const TimingSpec& timing_;
  GroupInputs in_;
  GramBuffer& buffer_;
  /// The part of K the group's cells read.
  Triangle gram_part_ = Triangle::Both;
};

}  // namespace

bool reaches_kernel(const Cell& cell, const Variant& solver) {
  return cell.form == Form::Dual &&
         (solver.plugin->has_flag(flags::kernel_inputs) || learns_hyperparameters(solver));
}

bool reads_gram(const Cell& cell, const Variant& solver) {
  return cell.form == Form::Dual && !reaches_kernel(cell, solver);
}

std::size_t last_gram_reader(const std::vector<GroupCell>& cells) {
  for (std::size_t i = cells.size(); i-- > 0;) {
    if (uses_gram(cells[i])) return i;
  }
  return cells.size();
}

std::vector<GramPlace> gram_places(const std::vector<GroupCell>& cells) {
  const std::size_t last = last_gram_reader(cells);
  std::vector<GramPlace> places(cells.size());
  bool built = false;  // a cell before this one reads K
  for (std::size_t i = 0; i < cells.size(); ++i) {
    places[i].last_reader = i == last;
    places[i].beside_gram = built && i < last && !uses_gram(cells[i]);
    places[i].after_gram = i > last || last == cells.size();
    built = built || uses_gram(cells[i]);
  }
  return places;
}

void execute_group(const std::vector<GroupCell>& cells, const GroupKernel& kernel,
                   const PreparedData& data, const TimingSpec& timing,
                   const GroupCallbacks& callbacks, GramBuffer& buffer) {
  GroupExecution(kernel, data, timing, buffer).run(cells, callbacks);
}

void execute_group(const std::vector<GroupCell>& cells, const Kernel& kernel,
                   std::string_view kernel_name, const PreparedData& data, const TimingSpec& timing,
                   const GroupCallbacks& callbacks, GramBuffer& buffer) {
  GroupKernel fixed;
  fixed.name = kernel_name;
  fixed.kernel = &kernel;
  execute_group(cells, fixed, data, timing, callbacks, buffer);
}

void execute_group(const std::vector<GroupCell>& cells, const Kernel& kernel,
                   std::string_view kernel_name, const PreparedData& data, const TimingSpec& timing,
                   const GroupCallbacks& callbacks) {
  GramBuffer buffer;
  execute_group(cells, kernel, kernel_name, data, timing, callbacks, buffer);
}

}  // namespace kexp::core
