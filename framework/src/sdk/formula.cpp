// Kernel formulas (kexp/formula.hpp): the parser, and the compiler from a parsed formula
// with parameter values to a FormulaProgram.
//
// The parser is a recursive descent over the tokens, its depth bounded by
// kMaxFormulaDepth and its input by kMaxFormulaLength, so that no formula can exhaust the
// stack or the time. Its nodes are created children first, so that every later pass walks
// them in index order, without recursion.
//
// The compiler folds each node into a value: a constant, or c₁·v + c₀ for a computed value v
// (an input, or a node of the program graph). Affine values are carried along instead of
// computed, and fused into the instruction that reads them (exp(−r2/(2σ²)) is one
// instruction, exp with k = −1/(2σ²)); common parts are computed once (the graph's nodes
// are unique); the instructions are then ordered by a post-order walk that takes the
// operand needing more registers first, and registers are given out as values die.
#include "kexp/formula.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

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

constexpr double kPi = 3.141592653589793238462643383279502884;

enum class Fn : std::uint8_t { exp, log, sqrt, tanh, abs, sin, cos, min, max };

struct FunctionName {
  const char* name;
  Fn fn;
  int arity;
};

constexpr FunctionName kFunctions[] = {
    {"exp", Fn::exp, 1},   {"log", Fn::log, 1}, {"sqrt", Fn::sqrt, 1},
    {"tanh", Fn::tanh, 1}, {"abs", Fn::abs, 1}, {"sin", Fn::sin, 1},
    {"cos", Fn::cos, 1},   {"min", Fn::min, 2}, {"max", Fn::max, 2},
};

/// The inputs, in the order of Node::index.
constexpr const char* kInputs[] = {"s", "r2", "r", "xx", "zz"};
enum Input : int { kS = 0, kR2 = 1, kR = 2, kXX = 3, kZZ = 4 };

struct Node {
  enum class Kind : std::uint8_t { number, input, param, neg, add, sub, mul, div, pow, call };
  Kind kind = Kind::number;
  Fn fn = Fn::exp;
  double value = 0;
  int index = 0;  ///< input: an Input; param: its place in the parameter list
  int a = -1, b = -1;
  std::size_t column = 0;
};

/// Edit distance, for "did you mean".
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Token {
  enum class Kind : std::uint8_t { number, name, op, end };
  Kind kind = Kind::end;
  char op = 0;  ///< + - * / ^ ( ) ,
  double value = 0;
  std::string name;
  std::size_t column = 0;  ///< 1-based, in characters
};

class Parser {
 public:
  Parser(const std::string& text, const std::vector<std::string>& parameters)
      : text_(text), parameters_(parameters) {}

  std::vector<Node> parse() {
    tokenize();
    const int root = sum();
    if (peek().kind != Token::Kind::end) {
      const Token& t = peek();
      fail(t.column, t.op == ')' ? std::string("')' closes no '('")
                                 : fmt::format("expected an operator (+ - * / ^) or the end, "
                                               "got {}",
                                               describe(t)));
    }
    (void)root;  // the last node made
    check_constant_divisions();
    return std::move(nodes_);
  }

 private:
  [[noreturn]] void fail(std::size_t column, const std::string& reason) const {
    throw FormulaError(text_, column, reason);
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Token::Kind::number:
        return "a number";
      case Token::Kind::name:
        return fmt::format("'{}'", t.name);
      case Token::Kind::op:
        return fmt::format("'{}'", t.op);
      case Token::Kind::end:
        break;
    }
    return "the end of the formula";
  }

  void tokenize() {
    std::size_t column = 0;
    std::size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      ++column;
      const auto byte = static_cast<unsigned char>(c);
      if (byte >= 0x80) {
        // One character of UTF-8: its lead byte and its continuation bytes.
        std::size_t length = (byte >= 0xf0) ? 4 : (byte >= 0xe0) ? 3 : 2;
        length = std::min(length, text_.size() - i);
        fail(column, fmt::format("unexpected character '{}': a formula is written in ASCII "
                                 "(names of letters, digits and '_')",
                                 text_.substr(i, length)));
      }
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++i;
        continue;
      }
      Token t;
      t.column = column;
      if (std::isdigit(byte) || (c == '.' && i + 1 < text_.size() &&
                                 std::isdigit(static_cast<unsigned char>(text_[i + 1])))) {
        std::size_t j = i;
        while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
        if (j < text_.size() && text_[j] == '.') {
          ++j;
          while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
        }
        if (j < text_.size() && (text_[j] == 'e' || text_[j] == 'E')) {
          std::size_t e = j + 1;
          if (e < text_.size() && (text_[e] == '+' || text_[e] == '-')) ++e;
          if (e < text_.size() && std::isdigit(static_cast<unsigned char>(text_[e]))) {
            j = e;
            while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
          }
        }
        const std::string literal = text_.substr(i, j - i);
        t.kind = Token::Kind::number;
        t.value = std::strtod(literal.c_str(), nullptr);
        if (!std::isfinite(t.value)) {
          fail(column, fmt::format("the number {} is too large for a double", literal));
        }
        if (j < text_.size() && is_name_char(text_[j])) {
          fail(column + (j - i), fmt::format("unexpected '{}' after the number {}: write an "
                                             "operator between a number and a name (2 * l)",
                                             text_[j], literal));
        }
        column += j - i - 1;
        i = j;
      } else if (is_name_start(c)) {
        std::size_t j = i;
        while (j < text_.size() && is_name_char(text_[j])) ++j;
        t.kind = Token::Kind::name;
        t.name = text_.substr(i, j - i);
        column += j - i - 1;
        i = j;
      } else if (std::strchr("+-*/^(),", c) != nullptr) {
        t.kind = Token::Kind::op;
        t.op = c;
        ++i;
      } else {
        fail(column, fmt::format("unexpected character '{}'", c));
      }
      tokens_.push_back(std::move(t));
    }
    Token end;
    end.column = column + 1;
    tokens_.push_back(end);
  }

  const Token& peek() const { return tokens_[at_]; }
  bool is_op(char op) const { return peek().kind == Token::Kind::op && peek().op == op; }
  const Token& next() { return tokens_[at_++]; }

  int add(Node n) {
    nodes_.push_back(n);
    return static_cast<int>(nodes_.size() - 1);
  }
  int binary(Node::Kind kind, int a, int b, std::size_t column) {
    Node n;
    n.kind = kind;
    n.a = a;
    n.b = b;
    n.column = column;
    return add(n);
  }

  /// sum := product (('+' | '-') product)*
  int sum() {
    int left = product();
    while (is_op('+') || is_op('-')) {
      const Token& t = next();
      const int right = product();
      left = binary(t.op == '+' ? Node::Kind::add : Node::Kind::sub, left, right, t.column);
    }
    return left;
  }

  /// product := unary (('*' | '/') unary)*
  int product() {
    int left = unary();
    while (is_op('*') || is_op('/')) {
      const Token& t = next();
      const int right = unary();
      left = binary(t.op == '*' ? Node::Kind::mul : Node::Kind::div, left, right, t.column);
    }
    return left;
  }

  /// unary := ('-' | '+') unary | power. Every nesting passes here, and is counted.
  int unary() {
    if (++depth_ > kMaxFormulaDepth) {
      fail(peek().column,
           fmt::format("the formula nests deeper than {} levels (parentheses, calls, signs and "
                       "powers); write it with fewer",
                       kMaxFormulaDepth));
    }
    int result = 0;
    if (is_op('-') || is_op('+')) {
      const Token& t = next();
      const int operand = unary();
      if (t.op == '-') {
        Node n;
        n.kind = Node::Kind::neg;
        n.a = operand;
        n.column = t.column;
        result = add(n);
      } else {
        result = operand;
      }
    } else {
      result = power();
    }
    --depth_;
    return result;
  }

  /// power := atom ('^' unary)?   (right-associative: a^b^c is a^(b^c))
  int power() {
    const int base = atom();
    if (!is_op('^')) return base;
    const Token& t = next();
    const int exponent = unary();
    return binary(Node::Kind::pow, base, exponent, t.column);
  }

  int atom() {
    const Token& t = next();
    if (t.kind == Token::Kind::number) {
      Node n;
      n.kind = Node::Kind::number;
      n.value = t.value;
      n.column = t.column;
      return add(n);
    }
    if (t.kind == Token::Kind::op && t.op == '(') {
      const int inner = sum();
      if (!is_op(')')) {
        fail(peek().column, fmt::format("expected ')' to close the '(' of column {}, got {}",
                                        t.column, describe(peek())));
      }
      next();
      return inner;
    }
    if (t.kind == Token::Kind::name) return name(t);
    fail(t.column, fmt::format("expected a number, a name or '(', got {}", describe(t)));
  }

  int name(const Token& t) {
    for (const FunctionName& f : kFunctions) {
      if (t.name != f.name) continue;
      if (!is_op('(')) {
        fail(t.column, fmt::format("{} is a function: write {}(…)", f.name, f.name));
      }
      next();
      std::vector<int> args;
      if (!is_op(')')) {
        args.push_back(sum());
        while (is_op(',')) {
          next();
          args.push_back(sum());
        }
      }
      if (!is_op(')')) {
        fail(peek().column,
             fmt::format("expected ',' or ')' in the call of {} at column {}, got {}", f.name,
                         t.column, describe(peek())));
      }
      next();
      if (static_cast<int>(args.size()) != f.arity) {
        fail(t.column, fmt::format("{} takes {} argument{}, and is given {}", f.name, f.arity,
                                   f.arity == 1 ? "" : "s", args.size()));
      }
      Node n;
      n.kind = Node::Kind::call;
      n.fn = f.fn;
      n.a = args[0];
      n.b = f.arity == 2 ? args[1] : -1;
      n.column = t.column;
      return add(n);
    }
    if (is_op('(')) {
      fail(t.column, fmt::format("'{}' is not a function; the functions are exp, log, sqrt, "
                                 "tanh, abs, sin, cos, min and max",
                                 t.name));
    }
    Node n;
    n.column = t.column;
    for (int i = 0; i < static_cast<int>(std::size(kInputs)); ++i) {
      if (t.name == kInputs[i]) {
        n.kind = Node::Kind::input;
        n.index = i;
        return add(n);
      }
    }
    if (t.name == "pi") {
      n.kind = Node::Kind::number;
      n.value = kPi;
      return add(n);
    }
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
      if (t.name == parameters_[i]) {
        n.kind = Node::Kind::param;
        n.index = static_cast<int>(i);
        return add(n);
      }
    }
    fail(t.column, unknown_name(t.name));
  }

  std::string unknown_name(const std::string& name) const {
    std::vector<std::string> known(std::begin(kInputs), std::end(kInputs));
    known.emplace_back("pi");
    for (const auto& p : parameters_) known.push_back(p);
    for (const FunctionName& f : kFunctions) known.emplace_back(f.name);
    std::string nearest;
    std::size_t best = std::max<std::size_t>(2, name.size() / 3) + 1;
    for (const std::string& k : known) {
      const std::size_t d = distance(name, k);
      if (d < best) {
        best = d;
        nearest = k;
      }
    }
    std::string params;
    for (const auto& p : parameters_) params += (params.empty() ? "" : ", ") + p;
    return fmt::format(
        "unknown name '{}'{}; a formula names s, r2, r, xx, zz, pi, {}and the "
        "functions exp, log, sqrt, tanh, abs, sin, cos, min, max",
        name, nearest.empty() ? "" : fmt::format(" (did you mean '{}'?)", nearest),
        params.empty() ? std::string("no parameters, ")
                       : fmt::format("the parameters {}, ", params));
  }

  /// A division whose divisor is made of numbers alone and is 0.
  void check_constant_divisions() const {
    std::vector<bool> constant(nodes_.size(), false);
    std::vector<double> value(nodes_.size(), 0.0);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const Node& n = nodes_[i];
      const auto ready = [&](int c) { return c < 0 || constant[static_cast<std::size_t>(c)]; };
      const auto v = [&](int c) { return c < 0 ? 0.0 : value[static_cast<std::size_t>(c)]; };
      switch (n.kind) {
        case Node::Kind::number:
          constant[i] = true;
          value[i] = n.value;
          continue;
        case Node::Kind::input:
        case Node::Kind::param:
          continue;
        default:
          break;
      }
      if (n.kind == Node::Kind::div && constant[static_cast<std::size_t>(n.b)] && v(n.b) == 0.0) {
        fail(n.column, "division by zero: the divisor is a constant 0");
      }
      if (!ready(n.a) || !ready(n.b)) continue;
      constant[i] = true;
      value[i] = fold(n, v(n.a), v(n.b));
    }
  }

 public:
  /// The value of an operation of constants (std's maths, as evaluate_formula).
  static double fold(const Node& n, double a, double b) {
    switch (n.kind) {
      case Node::Kind::neg:
        return -a;
      case Node::Kind::add:
        return a + b;
      case Node::Kind::sub:
        return a - b;
      case Node::Kind::mul:
        return a * b;
      case Node::Kind::div:
        return a / b;
      case Node::Kind::pow:
        return std::pow(a, b);
      case Node::Kind::call:
        switch (n.fn) {
          case Fn::exp:
            return std::exp(a);
          case Fn::log:
            return std::log(a);
          case Fn::sqrt:
            return std::sqrt(a);
          case Fn::tanh:
            return std::tanh(a);
          case Fn::abs:
            return std::fabs(a);
          case Fn::sin:
            return std::sin(a);
          case Fn::cos:
            return std::cos(a);
          case Fn::min:
            return (a < b || a != a) ? a : b;
          case Fn::max:
            return (a > b || a != a) ? a : b;
        }
        break;
      default:
        break;
    }
    return a;
  }

 private:
  const std::string& text_;
  const std::vector<std::string>& parameters_;
  std::vector<Token> tokens_;
  std::size_t at_ = 0;
  std::size_t depth_ = 0;
  std::vector<Node> nodes_;
};

// ---- The program graph: the compiler's middle, shared by compile() and the combinations.

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

std::uint64_t bits_of(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

using RefKey = std::tuple<int, std::uint64_t, int, int>;
RefKey key_of(const Ref& r) {
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

/// The program of the graph's value `result`: the operations it needs, ordered by a
/// post-order walk (the operand that needs more registers first), registers given out as
/// values die, constants in a table without repeats.
FormulaProgram emit(const Graph& graph, const Ref& result, const std::string& formula) {
  const auto& ops = graph.operations();
  const auto fail = [&](const std::string& reason) { throw FormulaError(formula, 0, reason); };
  FormulaProgram p;
  std::vector<std::uint64_t> constant_bits;
  const auto constant_index = [&](double v) -> std::uint8_t {
    const std::uint64_t b = bits_of(v);
    for (std::size_t i = 0; i < constant_bits.size(); ++i)
      if (constant_bits[i] == b) return static_cast<std::uint8_t>(i);
    if (constant_bits.size() == FormulaProgram::kMaxConstants) {
      fail(fmt::format("it needs more than {} distinct constants", FormulaProgram::kMaxConstants));
    }
    p.constants[constant_bits.size()] = v;
    constant_bits.push_back(b);
    return static_cast<std::uint8_t>(constant_bits.size() - 1);
  };
  const auto operands_of = [&](const Operation& op) {
    std::vector<int> out;
    if (op.a.kind == Ref::Kind::node) out.push_back(op.a.node);
    if (!is_unary(op.op) && op.b.kind == Ref::Kind::node) out.push_back(op.b.node);
    return out;
  };

  // Registers each node needs (Sethi–Ullman), in index order: operands come first.
  std::vector<int> need(ops.size(), 1);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::vector<int> in = operands_of(ops[i]);
    if (in.size() == 1) need[i] = std::max(1, need[static_cast<std::size_t>(in[0])]);
    if (in.size() == 2) {
      const int x = need[static_cast<std::size_t>(in[0])];
      const int y = need[static_cast<std::size_t>(in[1])];
      need[i] = x == y ? x + 1 : std::max(x, y);
    }
  }

  // Post-order from the result, without recursion.
  std::vector<int> order;
  if (result.kind == Ref::Kind::node) {
    std::vector<char> state(ops.size(), 0);  // 0 new, 1 open, 2 done
    std::vector<int> stack = {result.node};
    while (!stack.empty()) {
      const int n = stack.back();
      auto& st = state[static_cast<std::size_t>(n)];
      if (st == 2) {
        stack.pop_back();
        continue;
      }
      if (st == 1) {
        st = 2;
        order.push_back(n);
        stack.pop_back();
        continue;
      }
      st = 1;
      std::vector<int> in = operands_of(ops[static_cast<std::size_t>(n)]);
      // pushed last is visited first: the operand with the larger need
      std::stable_sort(in.begin(), in.end(), [&](int x, int y) {
        return need[static_cast<std::size_t>(x)] < need[static_cast<std::size_t>(y)];
      });
      for (int c : in)
        if (state[static_cast<std::size_t>(c)] == 0) stack.push_back(c);
    }
  }
  if (order.size() > FormulaProgram::kMaxInstructions) {
    fail(fmt::format("it compiles to {} instructions, more than the {} a program holds",
                     order.size(), FormulaProgram::kMaxInstructions));
  }

  std::vector<std::size_t> last_use(ops.size(), 0);
  for (std::size_t at = 0; at < order.size(); ++at)
    for (int c : operands_of(ops[static_cast<std::size_t>(order[at])]))
      last_use[static_cast<std::size_t>(c)] = at;

  std::vector<int> reg_of(ops.size(), -1);
  bool busy[FormulaProgram::kMaxRegisters] = {};
  const auto operand = [&](const Ref& r) -> FormulaOperand {
    switch (r.kind) {
      case Ref::Kind::constant:
        return {FormulaSource::constant, constant_index(r.c)};
      case Ref::Kind::input:
        return {r.input, 0};
      case Ref::Kind::node:
        break;
    }
    return {FormulaSource::reg,
            static_cast<std::uint8_t>(reg_of[static_cast<std::size_t>(r.node)])};
  };
  for (std::size_t at = 0; at < order.size(); ++at) {
    const auto n = static_cast<std::size_t>(order[at]);
    const Operation& op = ops[n];
    FormulaInstruction& in = p.code[at];
    in.op = op.op;
    in.a = operand(op.a);
    in.k = constant_index(op.k);
    in.m = constant_index(op.m);
    if (is_unary(op.op)) {
      if (op.op == FormulaOp::powi || op.op == FormulaOp::powc) {
        in.b = {FormulaSource::constant, constant_index(op.b.c)};
      }
    } else {
      in.b = operand(op.b);
    }
    // Operands that die here free their registers first: dst may be one of them.
    for (int c : operands_of(op)) {
      if (last_use[static_cast<std::size_t>(c)] == at)
        busy[reg_of[static_cast<std::size_t>(c)]] = false;
    }
    std::size_t r = 0;
    while (r < FormulaProgram::kMaxRegisters && busy[r]) ++r;
    if (r == FormulaProgram::kMaxRegisters) {
      fail(fmt::format("it needs more than {} intermediate values at once",
                       FormulaProgram::kMaxRegisters));
    }
    busy[r] = true;
    reg_of[n] = static_cast<int>(r);
    in.dst = static_cast<std::uint8_t>(r);
    p.register_count = std::max<std::uint32_t>(p.register_count, static_cast<std::uint32_t>(r + 1));
  }
  p.instruction_count = static_cast<std::uint32_t>(order.size());
  p.result = operand(result);
  p.constant_count = static_cast<std::uint32_t>(constant_bits.size());
  return p;
}

/// The graph of an existing program, its result returned: each instruction a node.
Ref decompile(const FormulaProgram& p, Graph& g) {
  check_formula_program(p);
  std::vector<Ref> regs(FormulaProgram::kMaxRegisters);
  const auto ref = [&](const FormulaOperand& o) -> Ref {
    switch (o.source) {
      case FormulaSource::reg:
        return regs[o.index];
      case FormulaSource::constant:
        return Ref::of_constant(p.constants[o.index]);
      case FormulaSource::none:
        return Ref::of_constant(0);
      default:
        return Ref::of_input(o.source);
    }
  };
  for (std::uint32_t i = 0; i < p.instruction_count; ++i) {
    const FormulaInstruction& in = p.code[i];
    Operation op;
    op.op = in.op;
    op.a = ref(in.a);
    op.k = p.constants[in.k];
    op.m = p.constants[in.m];
    if (is_unary(in.op)) {
      if (in.op == FormulaOp::powi || in.op == FormulaOp::powc) op.b = ref(in.b);
    } else {
      op.b = ref(in.b);
    }
    regs[in.dst] = g.node(op);
  }
  return ref(p.result);
}

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
  tree->nodes = Parser(t, tree->parameters).parse();
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
