// Kernel formulas: a kernel written as an expression over the quantities one matrix
// product gives for a pair of points,
//
//   s = xᵀz,  r2 = ‖x − z‖²,  r = ‖x − z‖,  xx = ‖x‖²,  zz = ‖z‖²,
//
// the kernel's named parameters, numbers and the constant pi, with + − * / and ^ (power,
// right-associative, above unary minus: -r^2 is −(r²)), and the functions exp, log, sqrt,
// tanh, abs, sin, cos (one argument) and min, max (two). For example the
// rational-quadratic kernel, with parameters alpha and l:
//
//   (1 + r2 / (2 * alpha * l^2))^(-alpha)
//
// A Formula is parsed once, with the names of its parameters; an unknown name, a call
// with the wrong number of arguments, a division by a constant zero, a formula longer than
// kMaxFormulaLength characters or nested deeper than kMaxFormulaDepth is a FormulaError
// naming the column. compile() then gives the FormulaProgram of the formula for given
// parameter values (kexp/formula_program.hpp): every constant part folded, common parts
// computed once, and affine arguments fused into the function that reads them
// (exp(c·r2) is one instruction).
//
// gram::formula() evaluates a program over Gram matrices: the inner products of each
// block by one DGEMM (SGEMM in float32), then the program over the whole block with SIMD
// maths chosen for the CPU at run time (AVX-512, AVX2 with FMA, or SSE2): kexp::vexp and
// kexp::vlog for exp, log and constant powers, SLEEF for tanh, sin, cos and pow. A value
// that is not finite (NaN, ±inf) stops it with a kexp::NumericError naming the pair, the
// value and the inputs that gave it.
#pragma once

#include <armadillo>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kexp/error.hpp"
#include "kexp/export.hpp"
#include "kexp/formula_program.hpp"
#include "kexp/kernel.hpp"

namespace kexp {

/// The longest formula, in characters.
inline constexpr std::size_t kMaxFormulaLength = 10000;
/// The deepest nesting of parentheses, calls, signs and powers.
inline constexpr std::size_t kMaxFormulaDepth = 64;

/// A formula that cannot be parsed or compiled: the formula, the column (1-based, in
/// characters; 0 when the error is about the whole formula) and what is wrong.
class KEXP_API FormulaError : public InvalidArgument {
 public:
  FormulaError(const std::string& formula, std::size_t column, const std::string& reason);
  ~FormulaError() override;

  [[nodiscard]] std::size_t column() const { return column_; }
  /// What is wrong, without the formula or the column.
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  std::size_t column_;
  std::string reason_;
};

/// A parsed kernel formula.
class KEXP_API Formula {
 public:
  /// Parses `text`, whose names besides s, r2, r, xx, zz and pi are `parameters` (names of
  /// letters, digits and '_', not starting with a digit, none of the reserved names).
  /// Throws FormulaError.
  Formula(std::string text, std::vector<std::string> parameters);

  [[nodiscard]] const std::string& text() const;
  [[nodiscard]] const std::vector<std::string>& parameters() const;
  /// Whether the formula names parameter i.
  [[nodiscard]] bool uses_parameter(std::size_t i) const;

  /// The program for these parameter values, in the order of parameters(). Throws
  /// FormulaError when a constant part is not finite with them (a division by zero, the
  /// log of 0, an overflow), naming its column and the values, or when the program would
  /// pass FormulaProgram's limits.
  [[nodiscard]] FormulaProgram compile(const std::vector<double>& values) const;

  /// The names a formula may use besides its parameters.
  [[nodiscard]] static const std::vector<std::string>& reserved_names();

 private:
  struct Tree;
  std::shared_ptr<const Tree> tree_;
};

/// Throws InvalidArgument unless `p` is well formed: its counts within the limits, every
/// operand in range and every register written before it is read, the result produced by
/// the last instruction, and every powi exponent an integer of at most
/// kMaxFormulaIntegerPower.
KEXP_API void check_formula_program(const FormulaProgram& p);

/// The program of k₁ + k₂ + … or k₁·k₂·… (`sum`: true for a sum) of the programs `terms`.
/// Throws InvalidArgument when the result would pass the limits.
[[nodiscard]] KEXP_API FormulaProgram
combine_formula_programs(bool sum, const std::vector<FormulaProgram>& terms);

/// The program of c·k.
[[nodiscard]] KEXP_API FormulaProgram scale_formula_program(const FormulaProgram& p, double c);

/// The program written out, an instruction a line: "r0 = exp(-0.5·r2)".
[[nodiscard]] KEXP_API std::string formula_listing(const FormulaProgram& p);

/// Whether a program reads an input (to skip the products or the norms it does not need).
[[nodiscard]] KEXP_API bool formula_reads(const FormulaProgram& p, FormulaSource input);

/// The instruction set the engine runs on this CPU: "avx512", "avx2", "sse2" or "generic".
[[nodiscard]] KEXP_API const char* formula_engine_isa();

/// k(x, z) by the program for one pair: s, r2 (as ‖x − z‖², summed directly), xx and zz
/// from the points, then evaluate_formula. x and z have the same dimension.
[[nodiscard]] KEXP_API double evaluate_formula(const FormulaProgram& p, const arma::vec& x,
                                               const arma::vec& z);

namespace gram {

/// K(X, Z) by the program, K sized n × m by the caller (X d × n, Z d × m, finite; not
/// checked). Blocks shared among kexp's threads as kexp/gram.hpp's. Throws NumericError
/// naming the first pair whose value is not finite.
KEXP_API void formula(const FormulaProgram& p, const arma::mat& X, const arma::mat& Z,
                      arma::mat& K);

/// K(X, X), n × n, with r2 = 0 on the diagonal: all of it, exactly symmetric, or with
/// Triangle::Lower (or when the Kernel::gram call on this thread asked for it,
/// gram::requested_triangle()) only its lower triangle and diagonal.
KEXP_API void formula(const FormulaProgram& p, const arma::mat& X, arma::mat& K,
                      Triangle part = Triangle::Both);

/// The program applied in place to a block S (rows × cols, leading dimension ld) of inner
/// products s = xᵢᵀzⱼ, with the rows' and the columns' squared norms: k(xᵢ, zⱼ) with
/// r2 = max(0, ‖xᵢ‖² + ‖zⱼ‖² − 2s), on kexp's threads by the CPU's engine. `symmetric`: S
/// is K(X, X) (rows = cols), only its lower triangle is written, its diagonal evaluated
/// with r2 = 0 and `shift` added there. A value that is not finite is left in place. The
/// host device backend's apply-kernel (kexp/device_backend.hpp).
KEXP_API void formula_block(const FormulaProgram& p, double* S, std::size_t ld, std::size_t rows,
                            std::size_t cols, const double* row_norms, const double* col_norms,
                            bool symmetric, double shift);

/// The same in float32: SGEMM, the program's constants rounded to float32, float32 maths.
KEXP_API void formula(const FormulaProgram& p, const arma::fmat& X, const arma::fmat& Z,
                      arma::fmat& K);
KEXP_API void formula(const FormulaProgram& p, const arma::fmat& X, arma::fmat& K,
                      Triangle part = Triangle::Both);

}  // namespace gram

namespace detail {

/// Makes gram::formula run on the engine `name` ("avx512", "avx2", "sse2", "generic"), or
/// the CPU's best for nullptr; false, changing nothing, when this CPU or build has no such
/// engine. For tests that compare the engines.
KEXP_API bool use_formula_engine(const char* name);

}  // namespace detail
}  // namespace kexp
