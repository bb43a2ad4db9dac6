// The executor of a group: for each cell in order, the group's kernel fitted if it learns,
// K, K(X, X*) or Φ built once and shared, validation, fit and predict timed, the cell
// scored and paired with its counterpart in the other form; what a cell throws fails that
// cell only.
#include "exec/group.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <utility>

#include "exec/group_comparisons.hpp"
#include "exec/metrics.hpp"
#include "exec/validation.hpp"
#include "kexp/device.hpp"
#include "kexp/error.hpp"
#include "kexp/execution_target.hpp"
#include "plugin/plugin_call.hpp"
#include "plugin/registry.hpp"
#include "util/measure.hpp"

namespace kexp::core {

namespace {

struct Sharing {
  SharedState* state;
  std::size_t size, position;
};

/// A dual cell that reaches the kernel: no K is built for it.
bool reaches_kernel(const GroupCell& g) { return reaches_kernel(*g.cell, *g.solver); }

/// A cell that reads the group's K.
bool uses_gram(const GroupCell& g) { return reads_gram(*g.cell, *g.solver); }

class GroupExecution {
 public:
  GroupExecution(const GroupKernel& kernel, const PreparedData& data, const TimingSpec& timing,
                 GramBuffer& buffer)
      : source_(kernel),
        kernel_name_(kernel.name),
        validation_(kernel, data),
        data_(data),
        timing_(timing),
        buffer_(buffer) {}

  void run(const std::vector<GroupCell>& cells, const GroupCallbacks& callbacks) {
    callbacks_ = &callbacks;
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
    const auto first =
        std::find_if(cells.begin(), cells.end(), [](const GroupCell& g) { return !g.refusal; });
    in_.take_buffer(buffer_, data_.X_train.n_cols, first != cells.end() && uses_gram(*first));
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
      std::int64_t rss_at_start = -1;
      if (g.refusal) {
        result.status = CellResult::Status::Refused;
        result.error = *g.refusal;
      } else {
        if (callbacks.started) callbacks.started(*g.cell);
        try {
          if (reset_peak_rss()) rss_at_start = resident_bytes();  // else a peak of before
          const std::size_t entry = g.solver->component;
          const Sharing sharing{&shared_[entry], group_size[entry], group_position[entry]++};
          run_cell(g, last_dual, sharing, result);
          pair_with_earlier(g, predictions_, *active_, kernel_name_, result);
          compare_with_double(g, predictions_, result);
          predictions_.emplace_back(&g, result.prediction.mean);
        } catch (...) {
          // Plugin code is called through call_plugin(), so the message names the plugin
          // and what it was doing; anything thrown at all fails this cell only.
          result.status = CellResult::Status::Failed;
          result.error = current_exception_message();
        }
      }
      result.peak_rss_bytes = peak_rss_bytes();
      if (!g.refusal && rss_at_start >= 0 && result.peak_rss_bytes >= 0) {
        const double growth = static_cast<double>(result.peak_rss_bytes - rss_at_start);
        result.memory_notes = memory_note(growth, g.estimated_bytes);
        // A claim that far below what was measured is not a figure to report.
        if (!result.memory_notes.empty() && result.matrix_bytes && growth > *result.matrix_bytes) {
          result.memory_notes += fmt::format(
              "; matrix_bytes gives the growth measured, not the "
              "{:.3g} MB counted",
              *result.matrix_bytes / 1e6);
          result.matrix_bytes = growth;
        }
      }
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

  /// Calls a callback that is told of an input built; what it throws is a warning, and
  /// the cell goes on.
  template <class F>
  void told(F&& f) const {
    try {
      f();
    } catch (const std::exception& err) {
      if (callbacks_->warning) callbacks_->warning(err.what());
    }
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
    if (runs_on_device(*g.solver)) result.device_name = device::gpu_info().name;
    if (runs_on_host_backend(*g.solver)) result.device_name = kHostBackendName;
    if (reaches_kernel(g)) {
      // The solver computes what it needs from the kernel and the points: no K, no
      // K(X, X*), and no phase of the group's to time.
      validation_.validate(*g.solver, Form::Dual, kernel, in_, result, /*reaching=*/true);
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
        if (callbacks_->gram_built) {
          told([&] { callbacks_->gram_built(*g.cell, in_.K, gram_part_ == Triangle::Lower); });
        }
      }
      result.gram = in_.gram_timing;
      validation_.validate(*g.solver, Form::Dual, kernel, in_, result);
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
          in_.place_cross(buffer_, n, m);
          test.gram = &in_.cross();
          in_kernel("computing the cross Gram matrix K(X, X*)", in_.cross_failure, [&] {
            in_.cross_timing = measure(timing_, [&] {
              kernel.gram(data_.X_train, data_.X_test, in_.cross());
              in_.k_diag = kernel.diagonal(data_.X_test);
            });
            require_finite(in_.cross(), "the cross Gram matrix K(X, X*)");
            require_finite(in_.k_diag, "the diagonal k(x*, x*)");
          });
          in_.have_cross = true;
          if (callbacks_->cross_built) {
            told([&] { callbacks_->cross_built(*g.cell, in_.cross()); });
          }
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
      validation_.validate(*g.solver, Form::Primal, kernel, in_, result);
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
    // The kernel evaluations of the cell's own fit and prediction, counted by the SDK for a
    // solver that reaches the kernel.
    double counted = 0;
    const auto counting = [&](auto&& f) {
      const double before = detail::kernel_flops_counted();
      f();
      counted += detail::kernel_flops_counted() - before;
    };
    // The shared state as this fit finds it, for the fits that measure it again.
    const SharedState shared_before = train.shared != nullptr ? *train.shared : SharedState();
    arma::mat K_again;  // K for a measurement that may overwrite it
    result.fit = measure(
        fit_timing,
        [&] { counting([&] { in_solver("fitting", [&] { solver->fit(train, report); }); }); },
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
          counting([&] {
            prediction = in_solver("predicting", [&] { return solver->predict(test, report); });
          });
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
    score(data_, prediction.mean, fitted, result);
    result.flops = flops + report.fit_flops + report.predict_flops;
    const double reported = report.fit_flops + report.predict_flops;
    // A kernel's count per block may have a term per call (norms), which tiles repeat: 1%.
    if (train.kernel != nullptr && counted > 1.01 * reported) {
      result.flops = flops + counted;
      result.flops_notes = fmt::format(
          "solver '{}' reported {:.3g} flops for its fit and predictions, fewer than the {:.3g} "
          "its kernel evaluations alone took (counted by the SDK's Gram calls): flops gives "
          "the counted figure; a solver that reaches the kernel counts its kernel "
          "evaluations in SolverReport::fit_flops and predict_flops",
          sv.plugin->name(), reported, counted);
    }
    result.matrix_bytes = bytes + report.matrix_bytes;
    if (report.iterations >= 0) result.iterations = report.iterations;
    result.converged = report.converged;
    result.metrics = std::move(report.metrics);
    result.learned = std::move(report.learned);
    result.loss_curve = std::move(report.loss_curve);
    result.prediction = std::move(prediction);
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
  /// fit threw.
  std::shared_ptr<Kernel> fitted_;
  PhaseTiming fit_timing_;
  std::exception_ptr fit_failure_;
  /// Model selection, with the kernels fitted on each validation split.
  GroupValidation validation_;
  /// The kernel the group's cells use: the fixed one or fitted_.
  const Kernel* active_ = nullptr;
  const PreparedData& data_;
  const TimingSpec& timing_;
  GroupInputs in_;
  /// One per solver entry, for the cells of that entry in this group.
  std::map<std::size_t, SharedState> shared_;
  const GroupCallbacks* callbacks_ = nullptr;
  /// Test predictions of the cells that finished, for primal-dual pairs.
  FinishedPredictions predictions_;
  GramBuffer& buffer_;
  /// The part of K the group's cells read.
  Triangle gram_part_ = Triangle::Both;
};

}  // namespace

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
