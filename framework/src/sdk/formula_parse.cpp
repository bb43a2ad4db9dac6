// The parser of kernel formulas (formula_syntax.hpp): a recursive descent over the
// tokens, its depth bounded by kMaxFormulaDepth and its input by kMaxFormulaLength, so
// that no formula can exhaust the stack or the time. Its nodes are created children
// first, so that every later pass walks them in index order, without recursion.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kexp/formula.hpp"
#include "sdk/formula_syntax.hpp"

namespace kexp::formula_internal {

namespace {

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

}  // namespace

std::vector<Node> parse_formula(const std::string& text,
                                const std::vector<std::string>& parameters) {
  return Parser(text, parameters).parse();
}

}  // namespace kexp::formula_internal
