// Kernels in float32: Gram matrices and the streamed products of the matrix-free solvers
// with half the bytes of float64 and twice the values in each vector register.
//
// A kernel gets its float32 path from the SDK, not from a second implementation: the SDK
// runs the kernel's formula program (kexp/formula_kernel.hpp, the program of k as a
// function of s = xᵀz, r² = ‖x − z‖² and the norms), which the built-in vector kernels and
// their sums, products and scales declare, on the formula engine in float32, over blocks of
// K whose inner products come from one SGEMM, as kexp/gram.hpp does in float64 (the
// `native` path). A kernel that declares no formula (a plugin kernel written for float64
// only, a sequence kernel) gets the `converted` path: its float64 Gram of the float32
// inputs, rounded. Either way every kernel works in float32; gram::single() says which path
// ran, so a solver can record it.
//
// Accuracy of the native path, with u = 2⁻²⁴ the float32 rounding unit: each s and r² is
// a float32 sum of d products, off by at most about (d + 2)·u·(‖x‖² + ‖z‖²) from the exact
// value for the float32 inputs; the kernel's function then adds a few u of its value. For
// the Gaussian kernel that gives |K₃₂ − K₆₄| ≤ K₆₄·(γ·(d + 2)·u·(‖x‖² + ‖z‖²) + 4u) + the
// rounding of the inputs themselves (tests/framework/sdk/single_test.cpp checks it). The
// Laplacian's √r² turns an error δ of r² into up to √δ/σ for points close together (about
// 10⁻³ for d = 10 and ‖x‖ ≈ 1), as in float64 it turns one of float64's size into about
// 10⁻⁸. Only the diagonal of K(X, X) has r² = 0 exactly; a point met again in K(X, Z) gets
// r² of rounding's size, as in float64.
//
// Range: float32 ends at 3.4·10³⁸. On the native path a kernel value that is not finite
// throws kexp::NumericError naming the pair (`use precision: double`); the streamed
// products also check that their results are finite; on the converted path gram::single
// leaves K as computed (a factorization of it refuses values that are not finite).
#pragma once

#include <armadillo>
#include <cstdint>
#include <cstring>

#include "kexp/export.hpp"
#include "kexp/kernel.hpp"
#include "kexp/vector_math.hpp"

namespace kexp {

namespace gram {

/// How a float32 Gram matrix was computed.
enum class SinglePath : std::uint8_t {
  native,     ///< in float32 throughout: SGEMM and the kernel's formula
  converted,  ///< the kernel's float64 Gram of the float32 inputs, rounded to float32
};

/// "native" or "converted".
[[nodiscard]] KEXP_API const char* single_path_name(SinglePath path);

/// The path gram::single() takes for `kernel`: native when it declares a formula.
[[nodiscard]] KEXP_API SinglePath single_path(const Kernel& kernel);

/// K(X, Z) in float32, n × m, for X d × n and Z d × m (float32, finite). Blocks of 256 × 256
/// shared among kexp's threads, BLAS on one thread inside each. Throws
/// kexp::InvalidArgument for unequal dimensions or inputs that are not finite.
KEXP_API SinglePath single(const Kernel& kernel, const arma::fmat& X, const arma::fmat& Z,
                           arma::fmat& K);

/// K(X, X) in float32, n × n, exactly symmetric, with r² = 0 on the diagonal; with
/// Triangle::Lower only the lower triangle and the diagonal are written (native path).
KEXP_API SinglePath single(const Kernel& kernel, const arma::fmat& X, arma::fmat& K,
                           Triangle part = Triangle::Both);

/// out = K(X, Z) V (n × k, for V m × k) with K in float32 tiles that are never stored whole,
/// as gram::product does in float64: float32 kernel values, multiplied and summed in
/// float64 while the tile is in cache. The product is then exactly linear in V (a fixed
/// float32 K), which conjugate gradients need.
/// Returns the path the tiles took.
KEXP_API SinglePath product(const Kernel& kernel, const arma::fmat& X, const arma::fmat& Z,
                            const arma::mat& V, arma::mat& out);

/// w = K(X, C)ᵀ(K(X, C)u + v) with K(X, C) in float32 tiles, as gram::normal_product does in
/// float64: float32 kernel values, both products and all sums in float64 while the tile is
/// in cache, the tiles' results added in the same order whatever the number of threads.
/// (Products in float32 as well lose everything once u is large: falkon's T⁻¹A⁻¹β, whose
/// entries reach 10⁸, cancel to the fitted values.) `path`, when given, says which path the
/// tiles took.
KEXP_API arma::vec normal_product(const Kernel& kernel, const arma::fmat& X, const arma::fmat& C,
                                  const arma::vec& u, const arma::vec& v,
                                  SinglePath* path = nullptr);

}  // namespace gram
}  // namespace kexp
