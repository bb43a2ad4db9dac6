// The program graph of kernel formulas, private to the SDK: the compiler's middle, shared
// by Formula::compile() and the combinations of programs. Each node is an operation over
// constants, inputs and other nodes, made once (common parts are computed once); values
// are carried as affine functions c₁·v + c₀ of a node and fused into the instruction that
// reads them (exp(−r2/(2σ²)) is one instruction, exp with k = −1/(2σ²)).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kexp/formula.hpp"
#include "kexp/formula_program.hpp"

namespace kexp::formula_internal {

/// An operand in the graph: a constant, an input, or a node.
struct Ref {
  enum class Kind : std::uint8_t { constant, input, node };
  Kind kind = Kind::constant;
  double c = 0;
  FormulaSource input = FormulaSource::none;
  int node = -1;

  static Ref of_constant(double v) {
    Ref r;
    r.c = v;
    return r;
  }
  static Ref of_input(FormulaSource s) {
    Ref r;
    r.kind = Kind::input;
    r.input = s;
    return r;
  }
  static Ref of_node(int n) {
    Ref r;
    r.kind = Kind::node;
    r.node = n;
    return r;
  }
};

inline std::uint64_t bits_of(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

using RefKey = std::tuple<int, std::uint64_t, int, int>;
inline RefKey key_of(const Ref& r) {
  return {static_cast<int>(r.kind), r.kind == Ref::Kind::constant ? bits_of(r.c) : 0,
          static_cast<int>(r.input), r.node};
}

/// One operation of the graph, as an instruction with its constants written out.
struct Operation {
  FormulaOp op = FormulaOp::affine;
  Ref a, b;  ///< unary: b is the exponent of powi and powc, a constant
  double k = 1, m = 0;
};

/// A computed value, or an affine function k·base + m of one (or a constant).
struct Value {
  bool constant = true;
  double c = 0;
  Ref base;
  double k = 1, m = 0;

  static Value of_constant(double v) {
    Value x;
    x.c = v;
    return x;
  }
  static Value of(Ref r) {
    if (r.kind == Ref::Kind::constant) return of_constant(r.c);
    Value x;
    x.constant = false;
    x.base = r;
    return x;
  }
};

/// Where a failure in the graph is reported: the formula and the column of the operation
/// being lowered, and the parameter values, for the message.
struct Blame {
  const std::string* formula = nullptr;
  std::size_t column = 0;
  std::string values;  ///< "alpha = 0.5, l = 1"
};

class Graph {
 public:
  explicit Graph(Blame blame) : blame_(std::move(blame)) {}

  void set_column(std::size_t column) { blame_.column = column; }

  const std::vector<Operation>& operations() const { return ops_; }

  /// The node of `op`, made once.
  Ref node(const Operation& op) {
    const auto key = std::make_tuple(static_cast<int>(op.op), key_of(op.a), key_of(op.b),
                                     bits_of(op.k), bits_of(op.m));
    const auto it = unique_.find(key);
    if (it != unique_.end()) return Ref::of_node(it->second);
    // A graph of this size cannot fit a program: stop before it grows with the input.
    if (ops_.size() >= kMaxOperations) too_large();
    ops_.push_back(op);
    const int id = static_cast<int>(ops_.size() - 1);
    unique_.emplace(key, id);
    return Ref::of_node(id);
  }

  /// k·base + m as an operand: the base itself, or an affine instruction.
  Ref materialize(const Value& v) {
    if (v.constant) return Ref::of_constant(v.c);
    if (v.k == 1.0 && v.m == 0.0) return v.base;
    Operation op;
    op.op = FormulaOp::affine;
    op.a = v.base;
    op.k = v.k;
    op.m = v.m;
    return node(op);
  }

  /// A checked constant: not finite is an error of the formula.
  Value constant(double c) {
    if (!std::isfinite(c)) {
      fail(
          fmt::format("this constant part is {}{}: a division by zero, an overflow, or a log "
                      "or sqrt outside its domain",
                      c, blame_.values.empty() ? "" : " with " + blame_.values));
    }
    return Value::of_constant(c);
  }

  /// f(x) for a function of one argument (affine, exp, log, sqrt, tanh, abs, sin, cos).
  Value function(FormulaOp f, const Value& x) {
    if (x.constant) {
      Operation op;
      op.op = f;
      return constant(evaluate_constant(op, x.c, 0));
    }
    if (f == FormulaOp::affine) return x;
    Operation op;
    op.op = f;
    op.a = x.base;
    op.k = x.k;
    op.m = x.m;
    return Value::of(node(op));
  }

  Value add(const Value& x, const Value& y) { return add_scaled(x, y, 1.0); }
  Value subtract(const Value& x, const Value& y) { return add_scaled(x, y, -1.0); }

  Value multiply(const Value& x, const Value& y) {
    if (x.constant && y.constant) return constant(x.c * y.c);
    if (y.constant) return scale(x, y.c);
    if (x.constant) return scale(y, x.c);
    // (k₁·u + m₁)(k₂·v) = k₂·((k₁·u + m₁)·v): the first operand carries its affine part
    if (y.m == 0.0) return scale(binary(FormulaOp::mul, x, with_affine(y, 1, 0)), y.k);
    if (x.m == 0.0) return scale(binary(FormulaOp::mul, y, with_affine(x, 1, 0)), x.k);
    return commutative(FormulaOp::mul, x, y);
  }

  Value divide(const Value& x, const Value& y) {
    if (y.constant) {
      if (y.c == 0.0) {
        fail(fmt::format("division by zero: the divisor is 0{}",
                         blame_.values.empty() ? "" : " with " + blame_.values));
      }
      if (x.constant) return constant(x.c / y.c);
      return scale(x, 1.0 / y.c);
    }
    // x / (k·v) = (1/k)·(x / v), x's affine part carried by the division
    if (y.m == 0.0) return scale(binary(FormulaOp::div, x, with_affine(y, 1, 0)), 1.0 / y.k);
    return binary(FormulaOp::div, x, y);
  }

  Value minimum(const Value& x, const Value& y) { return min_max(FormulaOp::min, x, y); }
  Value maximum(const Value& x, const Value& y) { return min_max(FormulaOp::max, x, y); }

  Value power(const Value& x, const Value& y) {
    if (x.constant && y.constant) return constant(std::pow(x.c, y.c));
    if (y.constant) {
      const double e = y.c;
      if (e == 0.0) return Value::of_constant(1.0);  // std::pow(x, 0) is 1 for every x
      if (e == 1.0) return x;
      if (e == 0.5) return function(FormulaOp::sqrt, x);
      Operation op;
      op.op = std::floor(e) == e && std::fabs(e) <= kMaxFormulaIntegerPower ? FormulaOp::powi
                                                                            : FormulaOp::powc;
      op.a = x.base;
      op.b = Ref::of_constant(e);
      op.k = x.k;
      op.m = x.m;
      return Value::of(node(op));
    }
    if (x.constant && x.c > 0.0) {
      // c^y = exp(ln c · y)
      return function(FormulaOp::exp, scale(y, std::log(x.c)));
    }
    return binary(FormulaOp::pow, x, y);
  }

  [[noreturn]] void too_large() const {
    throw FormulaError(*blame_.formula, 0,
                       fmt::format("it compiles to more than {} operations; a program holds at "
                                   "most {} instructions",
                                   kMaxOperations, FormulaProgram::kMaxInstructions));
  }

  [[noreturn]] void fail(const std::string& reason) const {
    throw FormulaError(*blame_.formula, blame_.column, reason);
  }

  /// The value of an operation on constants, by evaluate_formula's definitions.
  static double evaluate_constant(const Operation& op, double a, double b) {
    FormulaProgram p;
    p.constant_count = 5;
    p.constants[0] = a;
    p.constants[1] = b;
    p.constants[2] = op.k;
    p.constants[3] = op.m;
    p.constants[4] = op.b.c;
    FormulaInstruction& in = p.code[0];
    in.op = op.op;
    in.dst = 0;
    in.a = {FormulaSource::constant, 0};
    in.b = {FormulaSource::constant, static_cast<std::uint8_t>(is_unary(op.op) ? 4 : 1)};
    in.k = 2;
    in.m = 3;
    p.instruction_count = 1;
    p.register_count = 1;
    p.result = {FormulaSource::reg, 0};
    return evaluate_formula<double>(p, 0, 0, 0, 0);
  }

 private:
  /// The most operations a graph may hold: well above what kMaxInstructions allows after
  /// the dead ones are dropped, and small enough that nothing grows with a hostile input.
  static constexpr std::size_t kMaxOperations = 4 * FormulaProgram::kMaxInstructions;

  static Value with_affine(Value v, double k, double m) {
    v.k = k;
    v.m = m;
    return v;
  }

  Value scale(const Value& x, double c) {
    if (x.constant) return constant(x.c * c);
    Value v = x;
    v.k = x.k * c;
    v.m = x.m * c;
    check_affine(v);
    return v;
  }

  void check_affine(const Value& v) const {
    if (!std::isfinite(v.k) || !std::isfinite(v.m)) {
      fail(fmt::format("a constant factor or term here is {}{}", std::isfinite(v.k) ? v.m : v.k,
                       blame_.values.empty() ? "" : " with " + blame_.values));
    }
  }

  /// x + sign·y
  Value add_scaled(const Value& x, const Value& y, double sign) {
    if (x.constant && y.constant) return constant(x.c + sign * y.c);
    if (y.constant) {
      Value v = x;
      v.m = x.m + sign * y.c;
      check_affine(v);
      return v;
    }
    if (x.constant) {
      Value v = y;
      v.k = sign * y.k;
      v.m = sign * y.m + x.c;
      check_affine(v);
      return v;
    }
    if (key_of(x.base) == key_of(y.base)) {
      // k₁·v + m₁ ± (k₂·v + m₂) = (k₁ ± k₂)·v + (m₁ ± m₂)
      Value v = x;
      v.k = x.k + sign * y.k;
      v.m = x.m + sign * y.m;
      check_affine(v);
      return v;
    }
    // (k₁·u + m₁) ± (k₂·v + m₂) = ±k₂·((±k₁/k₂)·u + (±m₁/k₂ + m₂/k₂) + v): one add whose
    // first operand carries its affine part, then the factor
    const double k2 = sign * y.k;
    Value left = with_affine(x, x.k / k2, (x.m + sign * y.m) / k2);
    check_affine(left);
    Value sum = binary(FormulaOp::add, left, with_affine(y, 1, 0));
    return scale(sum, k2);
  }

  Value min_max(FormulaOp f, const Value& x, const Value& y) {
    if (x.constant && y.constant) {
      Operation op;
      op.op = f;
      return constant(evaluate_constant(op, x.c, y.c));
    }
    return commutative(f, x, y);
  }

  /// x ∘ y, x's affine part carried by the instruction (dst = (k·a + m) ∘ b), y's computed
  /// first when it has one.
  Value binary(FormulaOp f, const Value& x, const Value& y) {
    Operation op;
    op.op = f;
    if (x.constant) {
      op.a = Ref::of_constant(x.c);
    } else {
      op.a = x.base;
      op.k = x.k;
      op.m = x.m;
    }
    op.b = materialize(y);
    return Value::of(node(op));
  }

  /// x ∘ y for a commutative ∘, the affine operand first.
  Value commutative(FormulaOp f, const Value& x, const Value& y) {
    const bool y_affine = !y.constant && (y.k != 1.0 || y.m != 0.0);
    const bool x_plain = x.constant || (x.k == 1.0 && x.m == 0.0);
    return y_affine && x_plain ? binary(f, y, x) : binary(f, x, y);
  }

  Blame blame_;
  std::vector<Operation> ops_;
  std::map<std::tuple<int, RefKey, RefKey, std::uint64_t, std::uint64_t>, int> unique_;
};

/// The program of the graph's value `result` (formula_emit.cpp). Throws FormulaError
/// naming `formula` when it passes FormulaProgram's limits.
FormulaProgram emit(const Graph& graph, const Ref& result, const std::string& formula);

/// The graph of an existing program, its result returned: each instruction a node.
Ref decompile(const FormulaProgram& p, Graph& g);

}  // namespace kexp::formula_internal
