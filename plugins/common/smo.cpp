// Sequential minimal optimization (common/smo.hpp).
#include "common/smo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "common/smo_passes.hpp"
#include "common/step_threads.hpp"
#include "kexp/parallel.hpp"

namespace kexp_solvers {

using namespace smo_passes;  // NOLINT(google-build-using-namespace): SMO's own passes

namespace {

class Smo {
 public:
  Smo(QMatrix& Q, const std::vector<double>& p, const std::vector<std::int8_t>& y,
      const SmoSettings& s)
      : Q_(Q),
        l_(p.size()),
        y_(y),
        p_(p),
        G_(p),
        G_bar_(p.size(), 0.0),
        alpha_(p.size(), 0.0),
        status_(p.size(), kLower),
        order_(p.size()),
        active_(p.size()),
        eps_(s.tolerance),
        upper_(s.upper),
        equality_(s.equality) {
    for (std::size_t i = 0; i < l_; ++i) order_[i] = i;
    yd_.resize(l_);
    up_.resize(l_);
    low_.resize(l_);
    scratch_.resize(l_);
    for (std::size_t i = 0; i < l_; ++i) {
      yd_[i] = y_[i];
      update_sets(i);
    }
  }

  SmoSolution run(const SmoSettings& s) {
    SmoSolution out;
    Q_.use_threads(threads_.threads());
    std::int64_t iter = 0;
    std::size_t counter = std::min<std::size_t>(l_, 1000) + 1;
    bool optimal = false;
    while (iter < s.iterations) {
      if (--counter == 0) {
        counter = std::min<std::size_t>(l_, 1000);
        if (s.shrinking) shrink();
      }
      std::size_t i = 0, j = 0;
      if (select(i, j)) {
        // optimal on the active set: rebuild the whole gradient and look again
        reconstruct_gradient();
        active_ = l_;
        if (select(i, j)) {
          optimal = true;
          break;
        }
        counter = 1;  // shrink at the next step
      }
      ++iter;
      if (equality_) {
        step_pair(i, j, out);
      } else {
        step_single(i, out);
      }
      if (threads_.stepped()) Q_.use_threads(threads_.threads());
    }
    if (!optimal && active_ < l_) {
      reconstruct_gradient();
      active_ = l_;
    }
    out.iterations = iter;
    out.converged = optimal;
    out.rho = equality_ ? rho() : 0.0;
    double v = 0;
    for (std::size_t i = 0; i < l_; ++i) v += alpha_[i] * (G_[i] + p_[i]);
    out.objective = v / 2;
    out.alpha.assign(l_, 0.0);
    out.gradient.assign(l_, 0.0);
    for (std::size_t i = 0; i < l_; ++i) {
      out.alpha[order_[i]] = alpha_[i];
      out.gradient[order_[i]] = G_[i];
    }
    return out;
  }

 private:
  /// Parts of a pass over n active variables on this step's threads.
  [[nodiscard]] std::size_t parts_of(std::size_t n) const {
    const auto threads = static_cast<std::size_t>(threads_.threads());
    return std::max<std::size_t>(1, std::min({threads, n / kPartLength, kMostParts}));
  }

  [[nodiscard]] bool upper_bound(std::size_t i) const { return status_[i] == kUpper; }
  [[nodiscard]] bool lower_bound(std::size_t i) const { return status_[i] == kLower; }

  void update_status(std::size_t i) {
    if (alpha_[i] >= upper_) {
      status_[i] = kUpper;
    } else if (alpha_[i] <= 0) {
      status_[i] = kLower;
    } else {
      status_[i] = kFree;
    }
    update_sets(i);
  }

  void update_sets(std::size_t i) {
    const bool grows = y_[i] > 0 ? status_[i] != kUpper : status_[i] != kLower;
    const bool shrinks = y_[i] > 0 ? status_[i] != kLower : status_[i] != kUpper;
    up_[i] = grows ? 0.0 : -kInf;
    low_[i] = shrinks ? 0.0 : -kInf;
  }

  void swap_index(std::size_t i, std::size_t j) {
    Q_.swap(i, j);
    std::swap(y_[i], y_[j]);
    std::swap(G_[i], G_[j]);
    std::swap(status_[i], status_[j]);
    std::swap(alpha_[i], alpha_[j]);
    std::swap(p_[i], p_[j]);
    std::swap(order_[i], order_[j]);
    std::swap(G_bar_[i], G_bar_[j]);
    std::swap(yd_[i], yd_[j]);
    std::swap(up_[i], up_[j]);
    std::swap(low_[i], low_[j]);
  }

  /// G of the inactive variables from G_bar (the bounded variables' part) and the free
  /// variables' columns.
  void reconstruct_gradient() {
    if (active_ == l_) return;
    for (std::size_t j = active_; j < l_; ++j) G_[j] = G_bar_[j] + p_[j];
    std::size_t free = 0;
    for (std::size_t j = 0; j < active_; ++j) free += status_[j] == kFree ? 1 : 0;
    if (static_cast<double>(free) * static_cast<double>(l_) >
        2.0 * static_cast<double>(active_) * static_cast<double>(l_ - active_)) {
      // fewer entries by the inactive variables' columns over the active part
      for (std::size_t i = active_; i < l_; ++i) {
        const double* Qi = Q_.column(i, active_);
        double sum = 0;
        for (std::size_t j = 0; j < active_; ++j) {
          if (status_[j] == kFree) sum += alpha_[j] * Qi[j];
        }
        G_[i] += sum;
      }
    } else {
      for (std::size_t i = 0; i < active_; ++i) {
        if (status_[i] != kFree) continue;
        const double* Qi = Q_.column(i, l_);
        const double a = alpha_[i];
        for (std::size_t j = active_; j < l_; ++j) G_[j] += a * Qi[j];
      }
    }
  }

  bool select(std::size_t& i, std::size_t& j) {
    return equality_ ? select_pair(i, j) : select_single(i);
  }

  /// WSS3: i maximizes −y_i G_i over I_up; j minimizes the second-order decrease
  /// −(m − (−y_j G_j))² / (Q_ii + Q_jj − 2y_iy_jQ_ij) over I_low. True when optimal. Each
  /// search is a vectorized pass for the extreme value and a pass from the end for the last
  /// position that takes it (LIBSVM takes the last among equals).
  bool select_pair(std::size_t& out_i, std::size_t& out_j) {
    const std::size_t active = active_;
    const std::size_t parts = parts_of(active);
    double* v = scratch_.data();
    double part_best[kMostParts], part_top[kMostParts];
    const double* G = G_.data();
    const double* y = yd_.data();
    in_parts(active, parts, [&](std::size_t lo, std::size_t hi, std::size_t p) {
      part_best[p] = largest_violation(hi - lo, G + lo, y + lo, up_.data() + lo, v + lo);
    });
    const double gmax = *std::max_element(part_best, part_best + parts);
    // I_up empty (or no finite violation): nothing can move
    const std::ptrdiff_t imax =
        gmax > -kInf ? last_of_extreme(v, active, parts, part_best, gmax) : -1;
    if (imax < 0) return true;
    const auto i = static_cast<std::size_t>(imax);
    const double* Qi = Q_.column(i, active);
    const double* QD = Q_.diagonal();
    const double Qii = QD[i], yi = yd_[i];
    in_parts(active, parts, [&](std::size_t lo, std::size_t hi, std::size_t p) {
      part_best[p] = least_decrease(hi - lo, gmax, G + lo, y + lo, low_.data() + lo, QD + lo,
                                    Qi + lo, Qii, yi, v + lo, part_top[p]);
    });
    const double best = *std::min_element(part_best, part_best + parts);
    const double gmax2 = *std::max_element(part_top, part_top + parts);
    if (gmax + gmax2 < eps_ || !(best < kInf)) return true;
    out_i = i;
    out_j = static_cast<std::size_t>(last_of_extreme(v, active, parts, part_best, best));
    return false;
  }

  /// The projected gradient of variable t: 0 where the gradient pushes it against its bound.
  [[nodiscard]] double projected(std::size_t t) const {
    if (lower_bound(t)) return std::min(G_[t], 0.0);
    if (upper_bound(t)) return std::max(G_[t], 0.0);
    return G_[t];
  }

  /// The variable whose exact step decreases the objective most, G_i²/Q_ii (the last
  /// among equals). True when the projected gradients lie within the tolerance of 0.
  bool select_single(std::size_t& out_i) {
    const std::size_t active = active_;
    const std::size_t parts = parts_of(active);
    double* v = scratch_.data();
    double part_best[kMostParts], part_top[kMostParts], part_bottom[kMostParts];
    in_parts(active, parts, [&](std::size_t lo, std::size_t hi, std::size_t p) {
      part_best[p] = largest_gain(hi - lo, G_.data() + lo, status_.data() + lo, Q_.diagonal() + lo,
                                  v + lo, part_top[p], part_bottom[p]);
    });
    const double best = *std::max_element(part_best, part_best + parts);
    const double pgmax = *std::max_element(part_top, part_top + parts);
    const double pgmin = *std::min_element(part_bottom, part_bottom + parts);
    if (pgmax - pgmin <= eps_ || !(best > 0)) return true;
    out_i = static_cast<std::size_t>(last_of_extreme(v, active, parts, part_best, best));
    return false;
  }

  /// The bounded variables' part of the gradient follows a change of status at the upper
  /// bound.
  void update_g_bar(std::size_t i, bool was_upper) {
    if (was_upper == upper_bound(i)) return;
    const double* Qi = Q_.column(i, l_);
    const double c = was_upper ? -upper_ : upper_;
    for (std::size_t k = 0; k < l_; ++k) G_bar_[k] += c * Qi[k];
  }

  void step_pair(std::size_t i, std::size_t j, SmoSolution& out) {
    const double* Qi = Q_.column(i, active_);
    const double* Qj = Q_.column(j, active_);
    const double* QD = Q_.diagonal();
    const double U = upper_;
    const double old_i = alpha_[i], old_j = alpha_[j];
    double& ai = alpha_[i];
    double& aj = alpha_[j];
    if (y_[i] != y_[j]) {
      double quad = QD[i] + QD[j] + 2.0 * Qi[j];
      if (quad <= 0) {
        quad = kTau;
        ++out.nonpositive_curvature;
      }
      const double delta = (-G_[i] - G_[j]) / quad;
      const double diff = ai - aj;
      ai += delta;
      aj += delta;
      if (diff > 0) {
        if (aj < 0) {
          aj = 0;
          ai = diff;
        }
      } else if (ai < 0) {
        ai = 0;
        aj = -diff;
      }
      // both bounds are U: C_i − C_j = 0
      if (diff > 0) {
        if (ai > U) {
          ai = U;
          aj = U - diff;
        }
      } else if (aj > U) {
        aj = U;
        ai = U + diff;
      }
    } else {
      double quad = QD[i] + QD[j] - 2.0 * Qi[j];
      if (quad <= 0) {
        quad = kTau;
        ++out.nonpositive_curvature;
      }
      const double delta = (G_[i] - G_[j]) / quad;
      const double sum = ai + aj;
      ai -= delta;
      aj += delta;
      if (sum > U) {
        if (ai > U) {
          ai = U;
          aj = sum - U;
        }
      } else if (aj < 0) {
        aj = 0;
        ai = sum;
      }
      if (sum > U) {
        if (aj > U) {
          aj = U;
          ai = sum - U;
        }
      } else if (ai < 0) {
        ai = 0;
        aj = sum;
      }
    }
    const double di = ai - old_i, dj = aj - old_j;
    const std::size_t active = active_;
    in_parts(active, parts_of(active), [&](std::size_t lo, std::size_t hi, std::size_t) {
      add_columns(hi - lo, G_.data() + lo, Qi + lo, di, Qj + lo, dj);
    });
    out.update_flops += 4.0 * static_cast<double>(active);
    const bool ui = upper_bound(i), uj = upper_bound(j);
    update_status(i);
    update_status(j);
    update_g_bar(i, ui);
    update_g_bar(j, uj);
  }

  void step_single(std::size_t i, SmoSolution& out) {
    const double* Qi = Q_.column(i, active_);
    double quad = Q_.diagonal()[i];
    if (quad <= 0) {
      quad = kTau;
      ++out.nonpositive_curvature;
    }
    const double old = alpha_[i];
    alpha_[i] = std::min(std::max(old - G_[i] / quad, 0.0), upper_);
    const double di = alpha_[i] - old;
    const std::size_t active = active_;
    in_parts(active, parts_of(active), [&](std::size_t lo, std::size_t hi, std::size_t) {
      add_column(hi - lo, G_.data() + lo, Qi + lo, di);
    });
    out.update_flops += 2.0 * static_cast<double>(active);
    const bool ui = upper_bound(i);
    update_status(i);
    update_g_bar(i, ui);
  }

  /// LIBSVM's shrinking: a bounded variable whose gradient points out of the box by more
  /// than the largest violation leaves the active set.
  void shrink() {
    double g1 = -kInf, g2 = -kInf;  // the largest violations in the two directions
    if (equality_) {
      for (std::size_t t = 0; t < active_; ++t) {
        if (y_[t] > 0) {
          if (!upper_bound(t)) g1 = std::max(g1, -G_[t]);
          if (!lower_bound(t)) g2 = std::max(g2, G_[t]);
        } else {
          if (!upper_bound(t)) g2 = std::max(g2, -G_[t]);
          if (!lower_bound(t)) g1 = std::max(g1, G_[t]);
        }
      }
    } else {
      g1 = 0;
      g2 = 0;
      for (std::size_t t = 0; t < active_; ++t) {
        const double pg = projected(t);
        g1 = std::max(g1, pg);
        g2 = std::max(g2, -pg);
      }
    }
    if (!unshrunk_ && g1 + g2 <= 10.0 * eps_) {
      unshrunk_ = true;
      reconstruct_gradient();
      active_ = l_;
    }
    for (std::size_t t = 0; t < active_; ++t) {
      if (!shrinkable(t, g1, g2)) continue;
      --active_;
      while (active_ > t) {
        if (!shrinkable(active_, g1, g2)) {
          swap_index(t, active_);
          break;
        }
        --active_;
      }
    }
  }

  [[nodiscard]] bool shrinkable(std::size_t t, double g1, double g2) const {
    if (!equality_) {
      // g1 = max PG ≥ 0, g2 = −min PG ≥ 0
      if (lower_bound(t)) return G_[t] > g1;
      if (upper_bound(t)) return G_[t] < -g2;
      return false;
    }
    if (upper_bound(t)) return y_[t] > 0 ? -G_[t] > g1 : -G_[t] > g2;
    if (lower_bound(t)) return y_[t] > 0 ? G_[t] > g2 : G_[t] > g1;
    return false;
  }

  /// ρ: the mean of y_iG_i over the free variables, or the middle of its feasible range.
  [[nodiscard]] double rho() const {
    double ub = kInf, lb = -kInf, sum = 0;
    std::size_t free = 0;
    for (std::size_t i = 0; i < active_; ++i) {
      const double yG = y_[i] * G_[i];
      if (upper_bound(i)) {
        if (y_[i] < 0) {
          ub = std::min(ub, yG);
        } else {
          lb = std::max(lb, yG);
        }
      } else if (lower_bound(i)) {
        if (y_[i] > 0) {
          ub = std::min(ub, yG);
        } else {
          lb = std::max(lb, yG);
        }
      } else {
        ++free;
        sum += yG;
      }
    }
    return free > 0 ? sum / static_cast<double>(free) : (ub + lb) / 2;
  }

  SdkOnOneThread sdk_;  ///< first: the SDK on one thread while the solver chooses its own
  StepThreads threads_{sdk_.threads()};
  QMatrix& Q_;
  std::size_t l_;
  std::vector<std::int8_t> y_;
  std::vector<double> p_, G_, G_bar_, alpha_;
  std::vector<std::int8_t> status_;
  /// Per position, as doubles for the vectorized selection: y, and −∞ or 0 where the
  /// variable is outside or inside I_up (it may grow: y = +1 below U, y = −1 above 0) and
  /// I_low (it may shrink).
  std::vector<double> yd_, up_, low_;
  std::vector<double> scratch_;
  std::vector<std::size_t> order_;  ///< position → the caller's index
  std::size_t active_;
  double eps_, upper_;
  bool equality_;
  bool unshrunk_ = false;
};

}  // namespace

SmoSolution solve_smo(QMatrix& Q, const std::vector<double>& p, const std::vector<std::int8_t>& y,
                      const SmoSettings& settings) {
  Smo smo(Q, p, y, settings);
  return smo.run(settings);
}

}  // namespace kexp_solvers
