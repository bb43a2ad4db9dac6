// Monomials x^α = Π_k x_k^{α_k} of total degree |α| ≤ p in d variables, for the
// polynomial and truncated-Taylor feature maps.
//
// The monomials are listed degree by degree; each one of degree j ≥ 1 is its parent of
// degree j − 1 times one variable x_k, with k no smaller than the parent's last variable,
// so that every α appears exactly once. There are C(p + d, d) of them, C(j + d − 1, j) of
// degree j. Evaluating them costs one multiplication each.
#pragma once

#include <kexp/error.hpp>
#include <kexp/gram.hpp>
#include <kexp/parallel.hpp>

#include <armadillo>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace kexp_kernels {

/// The largest feature dimension D an explicit map will produce: beyond it, Φ for a few
/// thousand samples no longer fits in memory, and the dual form is the one to use.
inline constexpr double kMaxFeatureDim = 1.0e6;

/// C(a, b) as a double (exact while it is below 2^53; grows past kMaxFeatureDim long
/// before that matters).
inline double binomial(double a, double b) {
  if (b < 0 || b > a) return 0.0;
  return std::round(std::exp(std::lgamma(a + 1) - std::lgamma(b + 1) - std::lgamma(a - b + 1)));
}

/// Throws kexp::InvalidArgument when D exceeds kMaxFeatureDim; `what` describes D,
/// e.g. "C(p + d, d) for d = 100, degree p = 8".
inline void require_sane_dimension(double D, const std::string& what) {
  if (D > kMaxFeatureDim) {
    char count[64];
    std::snprintf(count, sizeof count, "%.6g", D);
    throw kexp::InvalidArgument("the feature map would have D = " + std::string(count) +
                                " features (" + what + "), more than the limit of 1000000; " +
                                "lower the degree or order, or use a dual solver with this kernel");
  }
}

struct Monomial {
  std::size_t parent = 0;  ///< index of x^α / x_var; 0 (the constant) for degree 1
  std::size_t var = 0;     ///< the variable the parent is multiplied by
  unsigned degree = 0;     ///< |α|
  unsigned run = 0;        ///< α_var: how many times `var` occurs
  double factorial = 1;    ///< α! = Π_k α_k!
};

/// Every monomial of degree ≤ p in d variables; index 0 is the constant 1.
inline std::vector<Monomial> monomials_up_to(std::size_t d, unsigned p) {
  std::vector<Monomial> out(1);
  std::size_t begin = 0, end = 1;  // the monomials of the previous degree
  for (unsigned j = 1; j <= p && d > 0; ++j) {
    for (std::size_t m = begin; m < end; ++m) {
      const Monomial parent = out[m];
      const std::size_t first = parent.degree == 0 ? 0 : parent.var;
      for (std::size_t k = first; k < d; ++k) {
        Monomial c;
        c.parent = m;
        c.var = k;
        c.degree = j;
        c.run = (parent.degree > 0 && parent.var == k) ? parent.run + 1 : 1;
        c.factorial = parent.factorial * c.run;
        out.push_back(c);
      }
    }
    begin = end;
    end = out.size();
  }
  return out;
}

/// Φ(r, i) = weight[r] · x_i^{α(rows[r])}: the monomials `rows` of `all`, weighted, for
/// each column x_i of X. Phi is sized rows.size() × n by the caller.
inline void evaluate_monomials(const std::vector<Monomial>& all,
                               const std::vector<std::size_t>& rows, const arma::vec& weight,
                               const arma::mat& X, arma::mat& Phi) {
  // The scratch vector is allocated in the region: a failed allocation is carried out.
  kexp::ExceptionCapture capture;
#pragma omp parallel num_threads(kexp::thread_count())
  {
    std::vector<double> value;
    capture.run([&] { value.resize(all.size()); });
#pragma omp for schedule(static)
    for (arma::uword i = 0; i < X.n_cols; ++i) {
      if (capture.failed()) continue;
      const double* x = X.colptr(i);
      value[0] = 1.0;
      for (std::size_t m = 1; m < all.size(); ++m) value[m] = value[all[m].parent] * x[all[m].var];
      double* out = Phi.colptr(i);
      for (std::size_t r = 0; r < rows.size(); ++r) out[r] = weight[r] * value[rows[r]];
    }
  }
  capture.rethrow_if_any();
}

}  // namespace kexp_kernels
