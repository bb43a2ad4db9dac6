// FormulaProgram: a kernel formula compiled (kexp/formula.hpp) into plain data that any
// evaluator can take as it is — the vectorized CPU engine, a GPU interpreter, a test.
//
// k(x, z) is a function of the quantities one matrix product gives for a pair,
//   s = xᵀz,   xx = ‖x‖²,   zz = ‖z‖²,   r2 = ‖x − z‖² = max(0, xx + zz − 2s)
// (exactly 0 on the diagonal of K(X, X)); r = √r2 is compiled to sqrt(r2). A program is
// a list of instructions over registers, each reading its operands from a register, the
// constant table or one of those inputs, and writing one register:
//
//   add sub mul div min max pow     dst = (c[k]·a + c[m]) ∘ b
//   affine exp log sqrt tanh abs    dst = f(c[k]·a + c[m])      (affine: f(t) = t)
//   sin cos
//   powi powc                       dst = (c[k]·a + c[m])^c[b]   (b names a constant;
//                                   powi: an integer exponent |e| ≤ 64, by multiplications)
//
// The instructions run in order; the value of k is `result`, a register written by the
// last instruction (or a constant or an input, with no instruction at all). A register
// is written before it is read, and an instruction may write a register it reads (the
// evaluators work element by element). min and max return a NaN operand when there is
// one (a < b or a is NaN ? a : b). Everything is fixed-size, trivially copyable and free
// of pointers: a GPU takes a program in one copy to constant memory.
//
// evaluate_formula() below is the reference: what each instruction means, for one pair,
// in double or float, on the host or (compiled by nvcc) on a GPU.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kexp/integer_power.hpp"

namespace kexp {

/// Where an instruction reads an operand.
enum class FormulaSource : std::uint8_t {
  none,      ///< no operand (b of an instruction that reads one)
  reg,       ///< the register `index`
  constant,  ///< constants[index]
  s,         ///< xᵀz
  r2,        ///< ‖x − z‖²
  xx,        ///< ‖x‖²
  zz,        ///< ‖z‖²
};

struct FormulaOperand {
  FormulaSource source = FormulaSource::none;
  std::uint8_t index = 0;
};

enum class FormulaOp : std::uint8_t {
  add,
  sub,
  mul,
  div,
  min,
  max,
  pow,  ///< a^b, both variable (std::pow's meaning)
  affine,
  exp,
  log,
  sqrt,
  tanh,
  abs,
  sin,
  cos,
  powi,  ///< integer exponent, |e| ≤ 64: repeated squaring, 1/x^|e| when negative
  powc,  ///< any other constant exponent (std::pow's meaning)
};

/// Whether `op` is dst = f(c[k]·a + c[m]) (or the powers, which also read c[b]).
KEXP_HOST_DEVICE constexpr bool is_unary(FormulaOp op) { return op >= FormulaOp::affine; }

struct FormulaInstruction {
  FormulaOp op = FormulaOp::affine;
  std::uint8_t dst = 0;
  FormulaOperand a;
  FormulaOperand b;    ///< binary: the second operand; powi, powc: the exponent's constant
  std::uint8_t k = 0;  ///< the constant that multiplies a (1 where a is used as it is)
  std::uint8_t m = 0;  ///< the constant added to it (0 where a is used as it is)
};

/// The largest integer exponent powi takes.
inline constexpr int kMaxFormulaIntegerPower = 64;

struct FormulaProgram {
  static constexpr std::size_t kMaxInstructions = 128;
  static constexpr std::size_t kMaxConstants = 128;
  static constexpr std::size_t kMaxRegisters = 16;

  std::uint32_t instruction_count = 0;
  std::uint32_t constant_count = 0;
  std::uint32_t register_count = 0;
  FormulaOperand result;
  FormulaInstruction code[kMaxInstructions] = {};
  double constants[kMaxConstants] = {};
};

static_assert(std::is_trivially_copyable_v<FormulaProgram>,
              "a FormulaProgram is copied as bytes to a GPU");

namespace formula_detail {

template <class T>
KEXP_HOST_DEVICE inline T operand(const FormulaProgram& p, const T* regs, FormulaOperand o, T s,
                                  T r2, T xx, T zz) {
  switch (o.source) {
    case FormulaSource::reg:
      return regs[o.index];
    case FormulaSource::constant:
      return static_cast<T>(p.constants[o.index]);
    case FormulaSource::s:
      return s;
    case FormulaSource::r2:
      return r2;
    case FormulaSource::xx:
      return xx;
    case FormulaSource::zz:
      return zz;
    case FormulaSource::none:
      break;
  }
  return T(0);
}

/// x^e for an integer e, |e| ≤ kMaxFormulaIntegerPower, by repeated squaring.
template <class T>
KEXP_HOST_DEVICE inline T integer_power_signed(T x, int e) {
  const int n = e < 0 ? -e : e;
  T r = T(1);
  T b = x;
  for (int q = n; q > 0; q >>= 1) {
    if ((q & 1) != 0) r *= b;
    b *= b;
  }
  return e < 0 ? T(1) / r : r;
}

}  // namespace formula_detail

/// k for one pair from its s, r2, xx and zz, as every evaluator of `p` must compute it (to
/// the accuracy of its maths): the reference. `p` must be well formed (kexp/formula.hpp's
/// check_formula_program).
template <class T>
KEXP_HOST_DEVICE inline T evaluate_formula(const FormulaProgram& p, T s, T r2, T xx, T zz) {
  using formula_detail::operand;
  T regs[FormulaProgram::kMaxRegisters];
  for (std::uint32_t i = 0; i < p.instruction_count; ++i) {
    const FormulaInstruction& in = p.code[i];
    // the first operand, with the instruction's affine part: t = c[k]·a + c[m]
    const T t = static_cast<T>(p.constants[in.k]) * operand(p, regs, in.a, s, r2, xx, zz) +
                static_cast<T>(p.constants[in.m]);
    T v = T(0);
    if (is_unary(in.op)) {
      switch (in.op) {
        case FormulaOp::affine:
          v = t;
          break;
        case FormulaOp::exp:
          v = std::exp(t);
          break;
        case FormulaOp::log:
          v = std::log(t);
          break;
        case FormulaOp::sqrt:
          v = std::sqrt(t);
          break;
        case FormulaOp::tanh:
          v = std::tanh(t);
          break;
        case FormulaOp::abs:
          v = std::fabs(t);
          break;
        case FormulaOp::sin:
          v = std::sin(t);
          break;
        case FormulaOp::cos:
          v = std::cos(t);
          break;
        case FormulaOp::powi:
          v = formula_detail::integer_power_signed(t, static_cast<int>(p.constants[in.b.index]));
          break;
        case FormulaOp::powc:
          v = std::pow(t, static_cast<T>(p.constants[in.b.index]));
          break;
        default:
          break;
      }
    } else {
      const T b = operand(p, regs, in.b, s, r2, xx, zz);
      switch (in.op) {
        case FormulaOp::add:
          v = t + b;
          break;
        case FormulaOp::sub:
          v = t - b;
          break;
        case FormulaOp::mul:
          v = t * b;
          break;
        case FormulaOp::div:
          v = t / b;
          break;
        case FormulaOp::min:
          v = (t < b || t != t) ? t : b;
          break;
        case FormulaOp::max:
          v = (t > b || t != t) ? t : b;
          break;
        case FormulaOp::pow:
          v = std::pow(t, b);
          break;
        default:
          break;
      }
    }
    regs[in.dst] = v;
  }
  return operand(p, regs, p.result, s, r2, xx, zz);
}

}  // namespace kexp
