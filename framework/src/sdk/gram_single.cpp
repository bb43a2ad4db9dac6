// Kernels in float32 (kexp/single.hpp): the kernel's formula program run by the formula
// engine over blocks of K whose inner products come from one SGEMM (native), or its float64
// Gram rounded (converted); and the streamed products of the matrix-free solvers over float32 tiles
// of kernel values, multiplied and summed in float64.
#include "kexp/single.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "kexp/error.hpp"
#include "kexp/formula.hpp"
#include "kexp/formula_kernel.hpp"
#include "kexp/gram.hpp"
#include "kexp/parallel.hpp"
#include "sdk/tiles.hpp"

namespace kexp {

namespace {

/// out[i, c] += Σⱼ K[i, j]·V[j, c] for a float32 tile K (rows × cols, leading dimension
/// rows) and float64 V (leading dimension ldv) and out (leading dimension ldo): float32
/// kernel values, float64 products and sums.
KEXP_VECTOR_CLONES
void add_tile_product(const float* K, std::size_t rows, std::size_t cols, const double* V,
                      std::size_t ldv, std::size_t k, double* out, std::size_t ldo) {
  for (std::size_t c = 0; c < k; ++c) {
    double* o = out + c * ldo;
    for (std::size_t j = 0; j < cols; ++j) {
      const double vj = V[j + c * ldv];
      const float* col = K + j * rows;
#pragma omp simd
      for (std::size_t i = 0; i < rows; ++i) o[i] += static_cast<double>(col[i]) * vj;
    }
  }
}

/// sum += Kᵀ(K u + v) for a float32 tile K (rows × m) and the tile's rows of v, in float64;
/// t (rows) is scratch.
KEXP_VECTOR_CLONES
void add_tile_normal_product(const float* K, std::size_t rows, std::size_t m, const double* u,
                             const double* v, double* t, double* sum) {
  std::copy_n(v, rows, t);
  for (std::size_t j = 0; j < m; ++j) {
    const double uj = u[j];
    const float* col = K + j * rows;
#pragma omp simd
    for (std::size_t i = 0; i < rows; ++i) t[i] += static_cast<double>(col[i]) * uj;
  }
  for (std::size_t j = 0; j < m; ++j) {
    const float* col = K + j * rows;
    double s = 0;
#pragma omp simd reduction(+ : s)
    for (std::size_t i = 0; i < rows; ++i) s += static_cast<double>(col[i]) * t[i];
    sum[j] += s;
  }
}

/// The float32 Gram of one kernel: its formula's program, or its float64 Gram rounded.
class SingleGram {
 public:
  explicit SingleGram(const Kernel& kernel) : kernel_(kernel), program_(formula_program(kernel)) {
    if (program_ != nullptr) check_formula_program(*program_);
  }

  [[nodiscard]] gram::SinglePath path() const {
    return program_ == nullptr ? gram::SinglePath::converted : gram::SinglePath::native;
  }

  /// K(X, Z), or K(X, X) when `symmetric` (Z is X), of which `part`.
  void gram(const arma::fmat& X, const arma::fmat& Z, arma::fmat& K, bool symmetric,
            Triangle part) const {
    K.set_size(X.n_cols, Z.n_cols);
    advise_huge_pages(K.memptr(), K.n_elem * sizeof(float));
    if (program_ == nullptr) {
      converted(X, Z, K, symmetric, part);
    } else if (symmetric) {
      gram::formula(*program_, X, K, part);
    } else {
      gram::formula(*program_, X, Z, K);
    }
  }

 private:
  /// The kernel's float64 Gram of the float32 inputs, rounded, a panel of kConvertedColumns
  /// columns at a time, so that the float64 values held are 8n·kConvertedColumns bytes,
  /// not 8nm. Of K(X, X) only the lower triangle is computed, and mirrored unless `part` is
  /// Triangle::Lower (exactly symmetric either way).
  void converted(const arma::fmat& X, const arma::fmat& Z, arma::fmat& K, bool symmetric,
                 Triangle part) const {
    const std::size_t n = X.n_cols, m = Z.n_cols;
    arma::mat panel;
    for (std::size_t j0 = 0; j0 < m; j0 += kConvertedColumns) {
      const std::size_t cols = std::min(kConvertedColumns, m - j0);
      const arma::mat Zd = arma::conv_to<arma::mat>::from(Z.cols(j0, j0 + cols - 1));
      const std::size_t i0 = symmetric ? j0 : 0;  // of K(X, X), the rows from the diagonal
      if (i0 >= n) break;
      kernel_.gram(arma::conv_to<arma::mat>::from(X.cols(i0, n - 1)), Zd, panel);
      for (std::size_t j = 0; j < cols; ++j) {
        float* into = K.colptr(j0 + j);
        for (std::size_t i = symmetric ? j : 0; i < panel.n_rows; ++i) {
          into[i0 + i] = static_cast<float>(panel(i, j));
        }
      }
    }
    if (symmetric && part == Triangle::Both) K = arma::symmatl(K);
  }

  static constexpr std::size_t kConvertedColumns = 256;

  const Kernel& kernel_;
  const FormulaProgram* program_;
};

void check_inputs(const char* what, const arma::fmat& X, const arma::fmat& Z) {
  if (X.n_rows != Z.n_rows) {
    throw InvalidArgument(fmt::format(
        "{}: the points have {} and {} dimensions (rows); a kernel needs the same number", what,
        X.n_rows, Z.n_rows));
  }
  if (!X.is_finite() || !Z.is_finite()) {
    throw InvalidArgument(fmt::format("{}: an input is not finite (NaN or infinity)", what));
  }
}

/// The error of a streamed product whose result is not finite: a float32 kernel value
/// overflowed (above 3.4·10³⁸, where float64 reaches 1.8·10³⁰⁸) or was not a number.
NumericError overflowed(const char* what) {
  return NumericError(fmt::format(
      "{}: a float32 kernel value overflowed or was not a number (float32 ends at 3.4e38): "
      "use precision: double, or scale the data or the kernel's parameters",
      what));
}

/// Entries of the float32 tiles: the bytes of the float64 ones.
constexpr std::size_t kTileEntries = detail::kTileBytes / sizeof(float);
using detail::columns_of;
using detail::kSumLanes;
using detail::kTileColumns;

}  // namespace

namespace gram {

const char* single_path_name(SinglePath path) {
  return path == SinglePath::native ? "native" : "converted";
}

SinglePath single_path(const Kernel& kernel) { return SingleGram(kernel).path(); }

SinglePath single(const Kernel& kernel, const arma::fmat& X, const arma::fmat& Z, arma::fmat& K) {
  check_inputs("gram::single", X, Z);
  const SingleGram g(kernel);
  g.gram(X, Z, K, false, Triangle::Both);
  return g.path();
}

SinglePath single(const Kernel& kernel, const arma::fmat& X, arma::fmat& K, Triangle part) {
  check_inputs("gram::single", X, X);
  const SingleGram g(kernel);
  g.gram(X, X, K, true, part);
  return g.path();
}

SinglePath product(const Kernel& kernel, const arma::fmat& X, const arma::fmat& Z,
                   const arma::mat& V, arma::mat& out) {
  check_inputs("gram::product", X, Z);
  if (V.n_rows != Z.n_cols) {
    throw InvalidArgument(fmt::format(
        "gram::product: V has {} rows but Z has {} points (columns); K(X, Z) V needs one row "
        "of V per point of Z",
        V.n_rows, Z.n_cols));
  }
  const SingleGram g(kernel);
  out.zeros(X.n_cols, V.n_cols);
  const std::size_t n = X.n_cols, m = Z.n_cols;
  if (n == 0 || m == 0) return g.path();
  const std::size_t columns = std::min(m, kTileColumns);
  const std::size_t rows = std::max<std::size_t>(1, kTileEntries / columns);
  detail::parallel_tiles<arma::fmat>((n + rows - 1) / rows, [&](std::size_t t, arma::fmat& tile) {
    const std::size_t r0 = t * rows;
    const std::size_t nr = std::min(rows, n - r0);
    const arma::fmat X_tile = columns_of(X, r0, nr);
    for (std::size_t c0 = 0; c0 < m; c0 += columns) {
      const std::size_t nc = std::min(columns, m - c0);
      g.gram(X_tile, columns_of(Z, c0, nc), tile, false, Triangle::Both);
      add_tile_product(tile.memptr(), nr, nc, V.memptr() + c0, V.n_rows, V.n_cols,
                       out.memptr() + r0, out.n_rows);
    }
  });
  if (!out.is_finite()) throw overflowed("gram::product");
  return g.path();
}

arma::vec normal_product(const Kernel& kernel, const arma::fmat& X, const arma::fmat& C,
                         const arma::vec& u, const arma::vec& v, SinglePath* path) {
  check_inputs("gram::normal_product", X, C);
  const std::size_t n = X.n_cols, m = C.n_cols;
  if (u.n_elem != m || v.n_elem != n) {
    throw InvalidArgument(fmt::format(
        "gram::normal_product: K(X, C)ᵀ(K(X, C)u + v) needs u of {} entries (one per point "
        "of C) and v of {} (one per point of X); they have {} and {}",
        m, n, u.n_elem, v.n_elem));
  }
  const SingleGram g(kernel);
  if (path != nullptr) *path = g.path();
  arma::vec w(m, arma::fill::zeros);
  if (n == 0 || m == 0) return w;
  const std::size_t rows = detail::normal_tile_rows(m, sizeof(float));
  const std::size_t tiles = (n + rows - 1) / rows;
  const std::size_t lanes = std::min(kSumLanes, tiles);
  arma::mat sums(m, lanes, arma::fill::zeros);
  struct Scratch {
    arma::fmat tile;
    std::vector<double> t;
  };
  detail::parallel_tiles<Scratch>(lanes, [&](std::size_t l, Scratch& scratch) {
    double* sum = sums.colptr(l);
    scratch.t.resize(rows);
    for (std::size_t t = l * tiles / lanes; t < (l + 1) * tiles / lanes; ++t) {
      const std::size_t r0 = t * rows, nr = std::min(rows, n - r0);
      g.gram(columns_of(X, r0, nr), C, scratch.tile, false, Triangle::Both);
      add_tile_normal_product(scratch.tile.memptr(), nr, m, u.memptr(), v.memptr() + r0,
                              scratch.t.data(), sum);
    }
  });
  for (std::size_t l = 0; l < lanes; ++l) w += sums.col(l);
  if (!w.is_finite()) throw overflowed("gram::normal_product");
  return w;
}

}  // namespace gram
}  // namespace kexp
