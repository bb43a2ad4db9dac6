// Kernel formulas (kexp/formula.hpp): a formula parsed once (formula_parse.cpp) and
// compiled with parameter values to a FormulaProgram through the program graph
// (formula_graph.hpp, formula_emit.cpp); the checks, combinations and listing of programs.
//
// The compiler folds each node into a value: a constant, or c₁·v + c₀ for a computed value v
// (an input, or a node of the program graph). Affine values are carried along instead of
// computed, and fused into the instruction that reads them (exp(−r2/(2σ²)) is one
// instruction, exp with k = −1/(2σ²)); common parts are computed once (the graph's nodes
// are unique); the instructions are then ordered by a post-order walk that takes the
// operand needing more registers first, and registers are given out as values die.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "kexp/formula.hpp"
#include "sdk/formula_graph.hpp"
#include "sdk/formula_syntax.hpp"

namespace kexp {

FormulaError::FormulaError(const std::string& formula, std::size_t column,
                           const std::string& reason)
    : InvalidArgument([&] {
        // A long formula is shown around the place of the error only.
        constexpr std::size_t kShown = 60;
        std::string shown = formula;
        if (formula.size() > kShown) {
          const std::size_t at = column > 0 ? column - 1 : 0;
          const std::size_t first = at > kShown / 2 ? at - kShown / 2 : 0;
          shown = (first > 0 ? "…" : "") + formula.substr(first, kShown) +
                  (first + kShown < formula.size() ? "…" : "");
        }
        return column > 0
                   ? fmt::format("column {} of the formula \"{}\": {}", column, shown, reason)
                   : fmt::format("the formula \"{}\": {}", shown, reason);
      }()),
      column_(column),
      reason_(reason) {}

FormulaError::~FormulaError() = default;

namespace {

using namespace formula_internal;  // NOLINT(google-build-using-namespace): the SDK's own parts

const char* source_name(FormulaSource s) {
  switch (s) {
    case FormulaSource::s:
      return "s";
    case FormulaSource::r2:
      return "r2";
    case FormulaSource::xx:
      return "xx";
    case FormulaSource::zz:
      return "zz";
    default:
      break;
  }
  return "?";
}

const char* op_name(FormulaOp op) {
  switch (op) {
    case FormulaOp::add:
      return "+";
    case FormulaOp::sub:
      return "-";
    case FormulaOp::mul:
      return "*";
    case FormulaOp::div:
      return "/";
    case FormulaOp::min:
      return "min";
    case FormulaOp::max:
      return "max";
    case FormulaOp::pow:
      return "^";
    case FormulaOp::affine:
      return "";
    case FormulaOp::exp:
      return "exp";
    case FormulaOp::log:
      return "log";
    case FormulaOp::sqrt:
      return "sqrt";
    case FormulaOp::tanh:
      return "tanh";
    case FormulaOp::abs:
      return "abs";
    case FormulaOp::sin:
      return "sin";
    case FormulaOp::cos:
      return "cos";
    case FormulaOp::powi:
    case FormulaOp::powc:
      return "^";
  }
  return "?";
}

}  // namespace

struct Formula::Tree {
  std::string text;
  std::vector<std::string> parameters;
  std::vector<Node> nodes;
  std::vector<bool> used;
};

const std::vector<std::string>& Formula::reserved_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n(std::begin(kInputs), std::end(kInputs));
    n.emplace_back("pi");
    for (const FunctionName& f : kFunctions) n.emplace_back(f.name);
    return n;
  }();
  return names;
}

Formula::Formula(std::string text, std::vector<std::string> parameters) {
  auto tree = std::make_shared<Tree>();
  tree->text = std::move(text);
  tree->parameters = std::move(parameters);
  const std::string& t = tree->text;
  for (const std::string& p : tree->parameters) {
    const bool valid = !p.empty() && is_name_start(p[0]) &&
                       std::all_of(p.begin(), p.end(), [](char c) { return is_name_char(c); });
    if (!valid) {
      throw FormulaError(t, 0,
                         fmt::format("'{}' cannot be a parameter's name: a name is letters, digits "
                                     "and '_', not starting with a digit",
                                     p));
    }
    const auto& reserved = reserved_names();
    if (std::find(reserved.begin(), reserved.end(), p) != reserved.end()) {
      throw FormulaError(t, 0,
                         fmt::format("'{}' cannot be a parameter's name: the formula language "
                                     "uses it (s, r2, r, xx, zz, pi and the functions)",
                                     p));
    }
    if (std::count(tree->parameters.begin(), tree->parameters.end(), p) > 1) {
      throw FormulaError(t, 0, fmt::format("the parameter '{}' is named twice", p));
    }
  }
  if (t.size() > kMaxFormulaLength) {
    throw FormulaError(t, 0,
                       fmt::format("it has {} characters, more than the {} a formula may have",
                                   t.size(), kMaxFormulaLength));
  }
  if (t.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw FormulaError(t, 0, "it is empty");
  }
  tree->nodes = parse_formula(t, tree->parameters);
  tree->used.assign(tree->parameters.size(), false);
  for (const Node& n : tree->nodes)
    if (n.kind == Node::Kind::param) tree->used[static_cast<std::size_t>(n.index)] = true;
  tree_ = std::move(tree);
}

const std::string& Formula::text() const { return tree_->text; }
const std::vector<std::string>& Formula::parameters() const { return tree_->parameters; }
bool Formula::uses_parameter(std::size_t i) const {
  return i < tree_->used.size() && tree_->used[i];
}

FormulaProgram Formula::compile(const std::vector<double>& values) const {
  const Tree& t = *tree_;
  if (values.size() != t.parameters.size()) {
    throw InvalidArgument(fmt::format("the formula \"{}\" has {} parameters and is given {} values",
                                      t.text, t.parameters.size(), values.size()));
  }
  Blame blame;
  blame.formula = &t.text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!t.used[i]) continue;
    blame.values +=
        fmt::format("{}{} = {}", blame.values.empty() ? "" : ", ", t.parameters[i], values[i]);
  }
  Graph g(blame);
  std::vector<Value> v(t.nodes.size());
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    const Node& n = t.nodes[i];
    g.set_column(n.column);
    const auto a = [&] { return v[static_cast<std::size_t>(n.a)]; };
    const auto b = [&] { return v[static_cast<std::size_t>(n.b)]; };
    switch (n.kind) {
      case Node::Kind::number:
        v[i] = Value::of_constant(n.value);
        break;
      case Node::Kind::param:
        v[i] = g.constant(values[static_cast<std::size_t>(n.index)]);
        break;
      case Node::Kind::input:
        switch (n.index) {
          case kS:
            v[i] = Value::of(Ref::of_input(FormulaSource::s));
            break;
          case kR2:
            v[i] = Value::of(Ref::of_input(FormulaSource::r2));
            break;
          case kR:
            v[i] = g.function(FormulaOp::sqrt, Value::of(Ref::of_input(FormulaSource::r2)));
            break;
          case kXX:
            v[i] = Value::of(Ref::of_input(FormulaSource::xx));
            break;
          default:
            v[i] = Value::of(Ref::of_input(FormulaSource::zz));
            break;
        }
        break;
      case Node::Kind::neg:
        v[i] = g.subtract(Value::of_constant(0.0), a());
        break;
      case Node::Kind::add:
        v[i] = g.add(a(), b());
        break;
      case Node::Kind::sub:
        v[i] = g.subtract(a(), b());
        break;
      case Node::Kind::mul:
        v[i] = g.multiply(a(), b());
        break;
      case Node::Kind::div:
        v[i] = g.divide(a(), b());
        break;
      case Node::Kind::pow:
        v[i] = g.power(a(), b());
        break;
      case Node::Kind::call:
        switch (n.fn) {
          case Fn::exp:
            v[i] = g.function(FormulaOp::exp, a());
            break;
          case Fn::log:
            v[i] = g.function(FormulaOp::log, a());
            break;
          case Fn::sqrt:
            v[i] = g.function(FormulaOp::sqrt, a());
            break;
          case Fn::tanh:
            v[i] = g.function(FormulaOp::tanh, a());
            break;
          case Fn::abs:
            v[i] = g.function(FormulaOp::abs, a());
            break;
          case Fn::sin:
            v[i] = g.function(FormulaOp::sin, a());
            break;
          case Fn::cos:
            v[i] = g.function(FormulaOp::cos, a());
            break;
          case Fn::min:
            v[i] = g.minimum(a(), b());
            break;
          case Fn::max:
            v[i] = g.maximum(a(), b());
            break;
        }
        break;
    }
  }
  const Ref result = g.materialize(v.back());
  return emit(g, result, t.text);
}

void check_formula_program(const FormulaProgram& p) {
  const auto bad = [](const std::string& what) {
    throw InvalidArgument(fmt::format("a malformed formula program: {}", what));
  };
  if (p.instruction_count > FormulaProgram::kMaxInstructions ||
      p.constant_count > FormulaProgram::kMaxConstants ||
      p.register_count > FormulaProgram::kMaxRegisters) {
    bad(fmt::format("{} instructions, {} constants and {} registers (at most {}, {} and {})",
                    p.instruction_count, p.constant_count, p.register_count,
                    FormulaProgram::kMaxInstructions, FormulaProgram::kMaxConstants,
                    FormulaProgram::kMaxRegisters));
  }
  bool written[FormulaProgram::kMaxRegisters] = {};
  const auto check_operand = [&](const FormulaOperand& o, std::uint32_t at, bool result) {
    switch (o.source) {
      case FormulaSource::reg:
        if (o.index >= p.register_count || !written[o.index]) {
          bad(fmt::format("{} reads register {} before it is written",
                          result ? "the result" : fmt::format("instruction {}", at), o.index));
        }
        break;
      case FormulaSource::constant:
        if (o.index >= p.constant_count) {
          bad(fmt::format("instruction {} reads constant {} of {}", at, o.index, p.constant_count));
        }
        break;
      case FormulaSource::s:
      case FormulaSource::r2:
      case FormulaSource::xx:
      case FormulaSource::zz:
        break;
      default:
        bad(fmt::format("{} has an operand of no source",
                        result ? "the result" : fmt::format("instruction {}", at)));
    }
  };
  for (std::uint32_t i = 0; i < p.instruction_count; ++i) {
    const FormulaInstruction& in = p.code[i];
    if (static_cast<int>(in.op) > static_cast<int>(FormulaOp::powc)) {
      bad(fmt::format("instruction {} has an unknown operation", i));
    }
    check_operand(in.a, i, false);
    if (in.k >= p.constant_count || in.m >= p.constant_count) {
      bad(fmt::format("instruction {} reads a constant beyond the table", i));
    }
    if (is_unary(in.op)) {
      if (in.op == FormulaOp::powi || in.op == FormulaOp::powc) {
        if (in.b.source != FormulaSource::constant) {
          bad(fmt::format("instruction {}: a power's exponent must be a constant", i));
        }
        check_operand(in.b, i, false);
        const double e = p.constants[in.b.index];
        if (in.op == FormulaOp::powi &&
            (std::floor(e) != e || std::fabs(e) > kMaxFormulaIntegerPower)) {
          bad(fmt::format("instruction {}: powi's exponent {} is not an integer of at most {}", i,
                          e, kMaxFormulaIntegerPower));
        }
      }
    } else {
      check_operand(in.b, i, false);
    }
    if (in.dst >= p.register_count) {
      bad(fmt::format("instruction {} writes register {} of {}", i, in.dst, p.register_count));
    }
    written[in.dst] = true;
  }
  check_operand(p.result, p.instruction_count, true);
  if (p.result.source == FormulaSource::reg &&
      (p.instruction_count == 0 || p.code[p.instruction_count - 1].dst != p.result.index)) {
    bad("the result is not written by the last instruction");
  }
}

FormulaProgram combine_formula_programs(bool sum, const std::vector<FormulaProgram>& terms) {
  if (terms.empty()) throw InvalidArgument("a sum or product of formula programs needs a term");
  const std::string what = sum ? "a sum of kernels" : "a product of kernels";
  Blame blame;
  blame.formula = &what;
  Graph g(blame);
  Value acc;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Value term = Value::of(decompile(terms[i], g));
    if (i == 0) {
      acc = term;
    } else {
      acc = sum ? g.add(acc, term) : g.multiply(acc, term);
    }
  }
  return emit(g, g.materialize(acc), what);
}

FormulaProgram scale_formula_program(const FormulaProgram& p, double c) {
  const std::string what = "a scaled kernel";
  Blame blame;
  blame.formula = &what;
  Graph g(blame);
  const Value v = g.multiply(Value::of(decompile(p, g)), g.constant(c));
  return emit(g, g.materialize(v), what);
}

std::string formula_listing(const FormulaProgram& p) {
  const auto number = [](double v) { return fmt::format("{:.17g}", v); };
  const auto operand = [&](const FormulaOperand& o) -> std::string {
    switch (o.source) {
      case FormulaSource::reg:
        return fmt::format("r{}", o.index);
      case FormulaSource::constant:
        return number(p.constants[o.index]);
      case FormulaSource::none:
        return "?";
      default:
        return source_name(o.source);
    }
  };
  std::string out;
  for (std::uint32_t i = 0; i < p.instruction_count; ++i) {
    const FormulaInstruction& in = p.code[i];
    std::string rhs;
    if (is_unary(in.op)) {
      const double k = p.constants[in.k], m = p.constants[in.m];
      std::string arg = k == 1.0 ? operand(in.a) : fmt::format("{}·{}", number(k), operand(in.a));
      if (m != 0.0) arg += fmt::format(" {} {}", m < 0 ? "-" : "+", number(std::fabs(m)));
      if (in.op == FormulaOp::affine) {
        rhs = arg;
      } else if (in.op == FormulaOp::powi || in.op == FormulaOp::powc) {
        rhs = fmt::format("({})^{}", arg, operand(in.b));
      } else {
        rhs = fmt::format("{}({})", op_name(in.op), arg);
      }
    } else {
      const double k = p.constants[in.k], m = p.constants[in.m];
      std::string a = k == 1.0 ? operand(in.a) : fmt::format("{}·{}", number(k), operand(in.a));
      if (m != 0.0) a = fmt::format("({} {} {})", a, m < 0 ? "-" : "+", number(std::fabs(m)));
      rhs = in.op == FormulaOp::min || in.op == FormulaOp::max
                ? fmt::format("{}({}, {})", op_name(in.op), a, operand(in.b))
                : fmt::format("{} {} {}", a, op_name(in.op), operand(in.b));
    }
    out += fmt::format("r{} = {}\n", in.dst, rhs);
  }
  out += fmt::format("k = {}\n", operand(p.result));
  return out;
}

bool formula_reads(const FormulaProgram& p, FormulaSource input) {
  if (p.result.source == input) return true;
  for (std::uint32_t i = 0; i < p.instruction_count; ++i) {
    const FormulaInstruction& in = p.code[i];
    if (in.a.source == input) return true;
    if (!is_unary(in.op) && in.b.source == input) return true;
  }
  return false;
}

double evaluate_formula(const FormulaProgram& p, const arma::vec& x, const arma::vec& z) {
  const double s = arma::dot(x, z);
  const double r2 = arma::accu(arma::square(x - z));
  return evaluate_formula<double>(p, s, r2, arma::dot(x, x), arma::dot(z, z));
}

}  // namespace kexp
