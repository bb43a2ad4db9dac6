// Gram matrices by a formula program (kexp/formula.hpp's gram::formula): the blocks of K
// (kexp/gram.hpp's for_each_block), the inner products of each by DGEMM or SGEMM, the norms
// of the points, the program run over the block by the engine of the CPU's instruction set
// (chosen once, at first use), the diagonal of K(X, X) evaluated with r2 = 0, and a value
// that is not finite reported with its pair.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kexp/error.hpp"
#include "kexp/formula.hpp"
#include "kexp/gram.hpp"
#include "kexp/parallel.hpp"
#include "sdk/formula_engine.hpp"

namespace kexp {

namespace {

using detail::formula_engine::Engine;

#if defined(__x86_64__) && defined(__GNUC__)
/// Whether the CPU (and the OS, which must save the registers) runs what -march=x86-64-v3
/// compiles (AVX2, FMA, BMI1 and BMI2), and -march=x86-64-v4 (AVX-512 F, CD, BW, DQ and VL
/// besides). By the features, which GCC and clang both name: clang does not take
/// "x86-64-v3" or "x86-64-v4" itself.
bool runs_x86_64_v3() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
}
bool runs_x86_64_v4() {
  return runs_x86_64_v3() && __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}
#endif

const Engine* best_engine() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (runs_x86_64_v4()) return &detail::formula_engine::kAvx512;
  if (runs_x86_64_v3()) return &detail::formula_engine::kAvx2;
  return &detail::formula_engine::kSse2;
#else
  return &detail::formula_engine::kGeneric;
#endif
}

/// The engine in use: the best the CPU runs, or the one a test chose.
std::atomic<const Engine*>& current_engine() {
  static std::atomic<const Engine*> engine{best_engine()};
  return engine;
}

const Engine& engine() { return *current_engine().load(std::memory_order_relaxed); }

/// C = Aᵀ B in float32 on the calling thread (SGEMM), as detail::gemm_tn.
void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const float* A, std::size_t lda,
             const float* B, std::size_t ldb, float* C, std::size_t ldc) {
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  const int la = static_cast<int>(lda), lb = static_cast<int>(ldb), lc = static_cast<int>(ldc);
  const float one = 1.0F, zero = 0.0F;
  arma::blas::gemm<float>("T", "N", &mi, &ni, &ki, &one, A, &la, B, &lb, &zero, C, &lc);
}

void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const double* A, std::size_t lda,
             const double* B, std::size_t ldb, double* C, std::size_t ldc) {
  detail::gemm_tn(m, n, k, A, lda, B, ldb, C, ldc);
}

template <class T>
detail::formula_engine::BlockFn<T> block_fn(const Engine& e) {
  if constexpr (std::is_same_v<T, double>) {
    return e.run64;
  } else {
    return e.run32;
  }
}

/// ‖x‖² of each column, summed in float64 and rounded once to T.
template <class T>
std::vector<T> squared_norms(const arma::Mat<T>& X) {
  std::vector<T> out(X.n_cols);
  for (arma::uword j = 0; j < X.n_cols; ++j) {
    const T* x = X.colptr(j);
    double sum = 0;
    for (arma::uword i = 0; i < X.n_rows; ++i) sum += static_cast<double>(x[i]) * x[i];
    out[j] = static_cast<T>(sum);
  }
  return out;
}

/// The error for K(i, j) = value, not finite: the pair, the value, and the inputs of the
/// formula for it.
template <class T>
NumericError not_finite(const arma::Mat<T>& X, const arma::Mat<T>& Z, bool symmetric, std::size_t i,
                        std::size_t j, T value) {
  const arma::vec x = arma::conv_to<arma::vec>::from(X.col(i));
  const arma::vec z = arma::conv_to<arma::vec>::from(Z.col(j));
  const double s = arma::dot(x, z);
  const double r2 = symmetric && i == j ? 0.0 : arma::accu(arma::square(x - z));
  return NumericError(fmt::format(
      "the kernel's value for the pair (x_{}, {}_{}) (points counted from 0) is {}: its formula "
      "gives it from s = {:.6g}, r2 = {:.6g}, xx = {:.6g}, zz = {:.6g}{}",
      i, symmetric ? "x" : "z", j,
      std::isnan(value) ? std::string("NaN") : fmt::format("{}", static_cast<double>(value)), s, r2,
      arma::dot(x, x), arma::dot(z, z),
      std::is_same_v<T, float> ? " (in float32, which ends at 3.4e38: use precision: double "
                                 "where it overflows)"
                               : ""));
}

template <class T>
void formula_gram(const FormulaProgram& p, const arma::Mat<T>& X, const arma::Mat<T>& Z,
                  arma::Mat<T>& K, bool symmetric, Triangle part) {
  check_formula_program(p);
  if (X.n_rows != Z.n_rows) {
    throw InvalidArgument(fmt::format(
        "gram::formula: the points have {} and {} dimensions (rows); a kernel needs the same "
        "number",
        X.n_rows, Z.n_rows));
  }
  if (K.n_rows != X.n_cols || K.n_cols != Z.n_cols) {
    K.set_size(X.n_cols, Z.n_cols);
    advise_huge_pages(K.memptr(), K.n_elem * sizeof(T));
  }
  if (K.n_elem == 0) return;
  if (p.instruction_count == 0 && p.result.source == FormulaSource::constant) {
    // a constant kernel: no product, no program
    const T c = static_cast<T>(p.constants[p.result.index]);
    if (!std::isfinite(c)) throw not_finite(X, Z, symmetric, 0, 0, c);
    K.fill(c);
    return;
  }
  const std::size_t d = X.n_rows;
  const bool reads_s = formula_reads(p, FormulaSource::s) || formula_reads(p, FormulaSource::r2);
  const bool reads_r2 = formula_reads(p, FormulaSource::r2);
  const bool reads_xx = reads_r2 || formula_reads(p, FormulaSource::xx);
  const bool reads_zz = reads_r2 || formula_reads(p, FormulaSource::zz);
  // Of K(X, X) the diagonal is evaluated again with r2 = 0, from the norms.
  const std::vector<T> xx = reads_xx || symmetric ? squared_norms(X) : std::vector<T>();
  const std::vector<T> zz = symmetric ? xx : (reads_zz ? squared_norms(Z) : std::vector<T>());
  std::vector<T> constants(p.constant_count);
  for (std::size_t c = 0; c < constants.size(); ++c) constants[c] = static_cast<T>(p.constants[c]);
  const auto run = block_fn<T>(engine());
  const auto fill = [&](T* block, std::size_t i0, std::size_t j0, std::size_t rows,
                        std::size_t cols, std::size_t ld) {
    if (reads_s) {
      if (d == 0) {
        for (std::size_t j = 0; j < cols; ++j) std::fill_n(block + j * ld, rows, T(0));
      } else {
        gemm_tn(rows, cols, d, X.memptr() + i0 * d, d, Z.memptr() + j0 * d, d, block, ld);
      }
    }
    const bool diagonal = symmetric && i0 == j0;
    T s_diagonal[detail::kGramBlock];
    const std::size_t on_diagonal = diagonal ? std::min(rows, cols) : 0;
    for (std::size_t j = 0; j < on_diagonal; ++j) s_diagonal[j] = block[j + j * ld];
    bool finite = run(p, constants.data(), block, ld, rows, cols,
                      reads_xx ? xx.data() + i0 : nullptr, reads_zz ? zz.data() + j0 : nullptr);
    for (std::size_t j = 0; j < on_diagonal; ++j) {
      const T n = xx[i0 + j];
      const T v = evaluate_formula<T>(p, s_diagonal[j], T(0), n, n);
      block[j + j * ld] = v;
      finite = finite && std::isfinite(v);
    }
    if (finite) return;
    for (std::size_t j = 0; j < cols; ++j) {
      for (std::size_t i = 0; i < rows; ++i) {
        const T v = block[i + j * ld];
        if (!std::isfinite(v)) throw not_finite(X, Z, symmetric, i0 + i, j0 + j, v);
      }
    }
  };
  detail::SingleThreadedBlas single;
  if (symmetric && part == Triangle::Lower) {
    detail::for_each_lower_block(X.n_cols, K, fill);
  } else {
    detail::for_each_block(X.n_cols, Z.n_cols, K, symmetric, fill);
  }
}

}  // namespace

namespace detail {

bool use_formula_engine(const char* name) {
  using namespace detail::formula_engine;
  const Engine* wanted = nullptr;
  if (name == nullptr) {
    wanted = best_engine();
  } else if (std::strcmp(name, "generic") == 0) {
    wanted = &kGeneric;
  } else if (kX86Engines) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (std::strcmp(name, "avx512") == 0 && runs_x86_64_v4()) wanted = &kAvx512;
    if (std::strcmp(name, "avx2") == 0 && runs_x86_64_v3()) wanted = &kAvx2;
    if (std::strcmp(name, "sse2") == 0) wanted = &kSse2;
#endif
  }
  if (wanted == nullptr) return false;
  current_engine().store(wanted);
  return true;
}

}  // namespace detail

const char* formula_engine_isa() { return engine().name; }

namespace detail {

void transpose_block(const double* from, double* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  engine().transpose64(from, to, rows, cols, ld);
}

void transpose_block(const float* from, float* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  engine().transpose32(from, to, rows, cols, ld);
}

}  // namespace detail

namespace gram {

void formula(const FormulaProgram& p, const arma::mat& X, const arma::mat& Z, arma::mat& K) {
  formula_gram<double>(p, X, Z, K, false, Triangle::Both);
}

void formula(const FormulaProgram& p, const arma::mat& X, arma::mat& K, Triangle part) {
  formula_gram<double>(p, X, X, K, true, part);
}

void formula(const FormulaProgram& p, const arma::fmat& X, const arma::fmat& Z, arma::fmat& K) {
  formula_gram<float>(p, X, Z, K, false, Triangle::Both);
}

void formula(const FormulaProgram& p, const arma::fmat& X, arma::fmat& K, Triangle part) {
  formula_gram<float>(p, X, X, K, true, part);
}

void formula_block(const FormulaProgram& p, double* S, std::size_t ld, std::size_t rows,
                   std::size_t cols, const double* row_norms, const double* col_norms,
                   bool symmetric, double shift) {
  check_formula_program(p);
  if (symmetric && rows != cols) {
    throw InvalidArgument(fmt::format(
        "gram::formula_block: a symmetric block is square, and this one is {} × {}", rows, cols));
  }
  const auto run = engine().run64;
  // a column per iteration, on kexp's threads; of a symmetric block its part from the
  // diagonal down, the diagonal then evaluated again with r2 = 0 and shifted
  parallel_for(
      cols,
      [&](std::size_t j) {
        double* column = S + j * ld;
        const std::size_t first = symmetric ? j : 0;
        const double s_diagonal = symmetric ? column[j] : 0.0;
        (void)run(p, p.constants, column + first, ld, rows - first, 1, row_norms + first,
                  col_norms + j);
        if (symmetric) {
          column[j] =
              evaluate_formula<double>(p, s_diagonal, 0.0, row_norms[j], row_norms[j]) + shift;
        }
      },
      Schedule::Dynamic, 16);
}

}  // namespace gram
}  // namespace kexp
