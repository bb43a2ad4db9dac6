// The syntax of kernel formulas (kexp/formula.hpp), private to the SDK: the functions and
// inputs a formula names, the parsed tree's nodes, and the parser's entry.
#pragma once

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kexp::formula_internal {

inline constexpr double kPi = 3.141592653589793238462643383279502884;

enum class Fn : std::uint8_t { exp, log, sqrt, tanh, abs, sin, cos, min, max };

struct FunctionName {
  const char* name;
  Fn fn;
  int arity;
};

inline constexpr FunctionName kFunctions[] = {
    {"exp", Fn::exp, 1},   {"log", Fn::log, 1}, {"sqrt", Fn::sqrt, 1},
    {"tanh", Fn::tanh, 1}, {"abs", Fn::abs, 1}, {"sin", Fn::sin, 1},
    {"cos", Fn::cos, 1},   {"min", Fn::min, 2}, {"max", Fn::max, 2},
};

/// The inputs, in the order of Node::index.
inline constexpr const char* kInputs[] = {"s", "r2", "r", "xx", "zz"};
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

inline bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
inline bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The nodes of `text`, children before their parents (the root last), `parameters` its
/// names besides the inputs. Throws FormulaError naming the column. The length and the
/// names of the parameters are checked by the caller (Formula's constructor).
std::vector<Node> parse_formula(const std::string& text,
                                const std::vector<std::string>& parameters);

}  // namespace kexp::formula_internal
