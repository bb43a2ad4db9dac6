// Kernel formulas (kexp/formula.hpp): the language against hand-written kernels, its errors
// with their columns, hostile formulas refused within bounds, the programs it compiles to
// (folded and fused), their combinations, the check of malformed programs, and the engine's
// Gram matrices, on every instruction set this CPU runs, in float64 and float32, against the
// reference evaluation pair by pair.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kexp/formula.hpp"
#include "kexp/vector_math.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

double eval(const std::string& text, const std::vector<std::string>& names,
            const std::vector<double>& values, double s, double r2, double xx, double zz) {
  const FormulaProgram p = Formula(text, names).compile(values);
  return evaluate_formula<double>(p, s, r2, xx, zz);
}

/// The FormulaError of parsing (and compiling with `values`) `text`; fails when none.
FormulaError error_of(const std::string& text, const std::vector<std::string>& names = {},
                      const std::vector<double>& values = {}) {
  try {
    (void)Formula(text, names).compile(values);
  } catch (const FormulaError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << text.substr(0, 80);
  return FormulaError(text, 0, "none");
}

// ---- The language against the kernels written by hand.

TEST(Formula, EvaluatesTheKernelsOfTheGuideAsWrittenByHand) {
  const double s = 0.7, r2 = 1.3, xx = 2.1, zz = 1.9, r = std::sqrt(r2);
  const double tol = 1e-15;
  EXPECT_NEAR(eval("exp(-r2 / (2 * sigma^2))", {"sigma"}, {1.5}, s, r2, xx, zz),
              std::exp(-r2 / (2 * 1.5 * 1.5)), tol);
  EXPECT_NEAR(
      eval("(1 + r2 / (2 * alpha * l^2))^(-alpha)", {"alpha", "l"}, {0.7, 1.2}, s, r2, xx, zz),
      std::pow(1 + r2 / (2 * 0.7 * 1.2 * 1.2), -0.7), tol);
  EXPECT_NEAR(eval("(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l)", {"l"}, {0.8}, s, r2, xx, zz),
              (1 + std::sqrt(3) * r / 0.8) * std::exp(-std::sqrt(3) * r / 0.8), tol);
  EXPECT_NEAR(
      eval("(1 + sqrt(5) * r / l + 5 * r2 / (3 * l^2)) * exp(-sqrt(5) * r / l)", {"l"}, {0.8}, s,
           r2, xx, zz),
      (1 + std::sqrt(5) * r / 0.8 + 5 * r2 / (3 * 0.64)) * std::exp(-std::sqrt(5) * r / 0.8), tol);
  EXPECT_NEAR(eval("1 / sqrt(1 + r2 / c^2)", {"c"}, {2.0}, s, r2, xx, zz),
              1 / std::sqrt(1 + r2 / 4.0), tol);
  EXPECT_NEAR(eval("exp(-2 * sin(pi * r / p)^2 / l^2)", {"p", "l"}, {1.7, 0.9}, s, r2, xx, zz),
              std::exp(-2 * std::pow(std::sin(M_PI * r / 1.7), 2) / 0.81), tol);
  EXPECT_NEAR(eval("(s + c)^3", {"c"}, {1.0}, s, r2, xx, zz), std::pow(s + 1.0, 3), tol);
  EXPECT_NEAR(eval("tanh(a * s + b)", {"a", "b"}, {0.5, -1}, s, r2, xx, zz), std::tanh(0.5 * s - 1),
              tol);
  EXPECT_EQ(eval("s", {}, {}, s, r2, xx, zz), s);
  EXPECT_EQ(eval("c", {"c"}, {2.5}, s, r2, xx, zz), 2.5);
  EXPECT_NEAR(eval("s / sqrt(xx * zz)", {}, {}, s, r2, xx, zz), s / std::sqrt(xx * zz), tol);
  EXPECT_NEAR(
      eval("max(0, 1 - r)^2 + min(s, xx) - abs(-zz) + log(xx) + cos(s)", {}, {}, s, r2, xx, zz),
      std::pow(std::max(0.0, 1 - r), 2) + std::min(s, xx) - zz + std::log(xx) + std::cos(s), tol);
}

TEST(Formula, FollowsTheUsualPrecedence) {
  EXPECT_EQ(eval("-2^2", {}, {}, 0, 0, 0, 0), -4.0);    // −(2²)
  EXPECT_EQ(eval("2^3^2", {}, {}, 0, 0, 0, 0), 512.0);  // 2^(3²)
  EXPECT_EQ(eval("2^-1", {}, {}, 0, 0, 0, 0), 0.5);
  EXPECT_EQ(eval("1 - 2 - 3", {}, {}, 0, 0, 0, 0), -4.0);  // left to right
  EXPECT_EQ(eval("8 / 4 / 2", {}, {}, 0, 0, 0, 0), 1.0);
  EXPECT_EQ(eval("1 + 2 * 3^2", {}, {}, 0, 0, 0, 0), 19.0);
  EXPECT_EQ(eval("(1 + 2) * 3", {}, {}, 0, 0, 0, 0), 9.0);
  EXPECT_EQ(eval("--s", {}, {}, 3, 0, 0, 0), 3.0);
  EXPECT_EQ(eval("1.5e1 + .5", {}, {}, 0, 0, 0, 0), 15.5);
}

TEST(Formula, PowersFollowStdPow) {
  // odd and even integer powers of negative bases, and non-integer ones
  for (const double s : {-1.7, -0.3, 0.0, 0.4, 2.5}) {
    for (const double e : {-3.0, -2.0, -1.0, 2.0, 3.0, 0.5, -0.5, 1.5, -1.5, 2.7, -0.7, 100.0}) {
      const double want = std::pow(s, e);
      const double got = eval(fmt::format("s^({})", e), {}, {}, s, 0, 0, 0);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << s << "^" << e;
      } else if (std::isinf(want)) {
        EXPECT_EQ(got, want) << s << "^" << e;
      } else {
        EXPECT_NEAR(got, want, 1e-14 * std::max(1.0, std::fabs(want))) << s << "^" << e;
      }
    }
  }
  EXPECT_EQ(eval("s^0", {}, {}, std::nan(""), 0, 0, 0), 1.0);
}

// ---- What compile() makes of it.

TEST(FormulaProgram, TheGaussianIsOneInstructionReadingR2) {
  const FormulaProgram p = Formula("exp(-r2 / (2 * sigma^2))", {"sigma"}).compile({2.0});
  ASSERT_EQ(p.instruction_count, 1U);
  EXPECT_EQ(p.code[0].op, FormulaOp::exp);
  EXPECT_EQ(p.code[0].a.source, FormulaSource::r2);
  EXPECT_EQ(p.constants[p.code[0].k], -1.0 / 8.0);
  EXPECT_EQ(p.constants[p.code[0].m], 0.0);
  EXPECT_EQ(p.result.source, FormulaSource::reg);
  EXPECT_NO_THROW(check_formula_program(p));
}

TEST(FormulaProgram, FoldsConstantsAndComputesCommonPartsOnce) {
  // the rational-quadratic kernel: one power of an affine r2
  const FormulaProgram rq =
      Formula("(1 + r2 / (2 * alpha * l^2))^(-alpha)", {"alpha", "l"}).compile({0.7, 2.0});
  ASSERT_EQ(rq.instruction_count, 1U);
  EXPECT_EQ(rq.code[0].op, FormulaOp::powc);
  EXPECT_EQ(rq.constants[rq.code[0].b.index], -0.7);
  // an integer power is by multiplications
  EXPECT_EQ(Formula("(s + 1)^2", {}).compile({}).code[0].op, FormulaOp::powi);
  // Matérn 3/2: r once, exp(−c·r), then the product, whose first operand is 1 + c·r
  const FormulaProgram m =
      Formula("(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l)", {"l"}).compile({1.0});
  EXPECT_EQ(m.instruction_count, 3U) << formula_listing(m);  // r, exp, (1 + c·r)·exp
  // numbers alone fold to a constant, and a constant kernel has no instruction
  const FormulaProgram c = Formula("2 * 3 + exp(0)", {}).compile({});
  EXPECT_EQ(c.instruction_count, 0U);
  EXPECT_EQ(evaluate_formula<double>(c, 0, 0, 0, 0), 7.0);
  // the same subexpression twice is computed once
  const FormulaProgram twice = Formula("exp(-r2) + exp(-r2)", {}).compile({});
  EXPECT_EQ(twice.instruction_count, 2U) << formula_listing(twice);
  EXPECT_THAT(formula_listing(m), HasSubstr("sqrt(r2)"));
}

TEST(FormulaProgram, SaysWhichInputsItReads) {
  const FormulaProgram p = Formula("exp(-r2) + xx", {}).compile({});
  EXPECT_TRUE(formula_reads(p, FormulaSource::r2));
  EXPECT_TRUE(formula_reads(p, FormulaSource::xx));
  EXPECT_FALSE(formula_reads(p, FormulaSource::s));
  EXPECT_FALSE(formula_reads(p, FormulaSource::zz));
  EXPECT_TRUE(formula_reads(Formula("s", {}).compile({}), FormulaSource::s));
}

TEST(FormulaProgram, SumsProductsAndScalesOfProgramsAreThoseOfTheKernels) {
  const FormulaProgram g = Formula("exp(-r2 / 2)", {}).compile({});
  const FormulaProgram q = Formula("(s + 1)^2", {}).compile({});
  const FormulaProgram c = Formula("0.5", {}).compile({});
  const FormulaProgram sum = combine_formula_programs(true, {g, q, c});
  const FormulaProgram product = combine_formula_programs(false, {g, q});
  const FormulaProgram scaled = scale_formula_program(g, 3.0);
  for (const double s : {-0.4, 0.3, 1.2}) {
    for (const double r2 : {0.0, 0.6, 2.5}) {
      const double kg = evaluate_formula<double>(g, s, r2, 1, 1);
      const double kq = evaluate_formula<double>(q, s, r2, 1, 1);
      EXPECT_NEAR(evaluate_formula<double>(sum, s, r2, 1, 1), kg + kq + 0.5, 1e-15);
      EXPECT_NEAR(evaluate_formula<double>(product, s, r2, 1, 1), kg * kq, 1e-15);
      EXPECT_NEAR(evaluate_formula<double>(scaled, s, r2, 1, 1), 3 * kg, 1e-15);
    }
  }
  EXPECT_NO_THROW(check_formula_program(sum));
  EXPECT_NO_THROW(check_formula_program(product));
  // a long sum needs few registers: the terms are added as they come
  std::vector<FormulaProgram> many;
  for (int i = 1; i <= 30; ++i) {
    many.push_back(Formula(fmt::format("exp(-r2 / {})", i), {}).compile({}));
  }
  const FormulaProgram long_sum = combine_formula_programs(true, many);
  EXPECT_LE(long_sum.register_count, 3U);
  double want = 0;
  for (int i = 1; i <= 30; ++i) want += std::exp(-0.8 / i);
  EXPECT_NEAR(evaluate_formula<double>(long_sum, 0, 0.8, 1, 1), want, 1e-13);
}

TEST(FormulaProgram, MalformedProgramsAreRefused) {
  FormulaProgram p = Formula("exp(-r2) * s", {}).compile({});
  ASSERT_NO_THROW(check_formula_program(p));
  FormulaProgram bad = p;
  bad.code[0].a = {FormulaSource::reg, 5};  // never written
  EXPECT_THROW(check_formula_program(bad), InvalidArgument);
  bad = p;
  bad.code[0].k = 100;  // beyond the constants
  EXPECT_THROW(check_formula_program(bad), InvalidArgument);
  bad = p;
  bad.instruction_count = 1000;
  EXPECT_THROW(check_formula_program(bad), InvalidArgument);
  bad = p;
  bad.result = {FormulaSource::reg, 3};
  EXPECT_THROW(check_formula_program(bad), InvalidArgument);
  bad = p;
  bad.code[0].op = static_cast<FormulaOp>(200);
  EXPECT_THROW(check_formula_program(bad), InvalidArgument);
  FormulaProgram power = Formula("s^3", {}).compile({});
  power.constants[power.code[0].b.index] = 2.5;  // powi of a fraction
  EXPECT_THROW(check_formula_program(power), InvalidArgument);
}

// ---- Errors name the column.

TEST(FormulaErrors, AnUnknownNameIsNamedWithItsColumnAndTheNearestName) {
  const FormulaError e = error_of("exp(-r2 / (2 * sigmaa^2))", {"sigma"});
  EXPECT_EQ(e.column(), 16U);
  EXPECT_THAT(e.reason(), HasSubstr("unknown name 'sigmaa'"));
  EXPECT_THAT(e.reason(), HasSubstr("did you mean 'sigma'"));
  EXPECT_THAT(std::string(e.what()), HasSubstr("column 16"));
}

TEST(FormulaErrors, WrongArityAndMisusedNamesAreErrors) {
  EXPECT_THAT(error_of("max(s)").reason(), HasSubstr("max takes 2 arguments, and is given 1"));
  EXPECT_EQ(error_of("1 + exp(s, r)").column(), 5U);
  EXPECT_THAT(error_of("exp + 1").reason(), HasSubstr("exp is a function"));
  EXPECT_THAT(error_of("s(2)").reason(), HasSubstr("'s' is not a function"));
  EXPECT_THAT(error_of("foo(s)").reason(), HasSubstr("'foo' is not a function"));
}

TEST(FormulaErrors, SyntaxErrorsNameTheirPlace) {
  EXPECT_EQ(error_of("(1 + s").column(), 7U);
  EXPECT_THAT(error_of("(1 + s").reason(), HasSubstr("close the '(' of column 1"));
  EXPECT_THAT(error_of("1 + s)").reason(), HasSubstr("')' closes no '('"));
  EXPECT_EQ(error_of("1 + * s").column(), 5U);
  EXPECT_THAT(error_of("2 s").reason(), HasSubstr("expected an operator"));
  EXPECT_THAT(error_of("2l").reason(), HasSubstr("after the number 2"));
  EXPECT_THAT(error_of("s # 2").reason(), HasSubstr("unexpected character '#'"));
  EXPECT_THAT(error_of("exp(-r2/σ)").reason(), HasSubstr("'σ'"));
  EXPECT_EQ(error_of("exp(-r2/σ)").column(), 9U);
  EXPECT_THAT(error_of("  ").reason(), HasSubstr("empty"));
  EXPECT_THAT(error_of("1e999").reason(), HasSubstr("too large"));
}

TEST(FormulaErrors, AConstantDivisionByZeroIsAnErrorWhereverItIsFolded) {
  // numbers alone: when it is parsed
  const FormulaError parsed = error_of("r2 / (1 - 1)");
  EXPECT_EQ(parsed.column(), 4U);
  EXPECT_THAT(parsed.reason(), HasSubstr("division by zero"));
  EXPECT_THROW((void)Formula("r2 / (2 - 2)", {}), FormulaError);
  // with a parameter's value: when it is compiled, naming the value
  const Formula f("exp(-r2 / l)", {"l"});
  EXPECT_NO_THROW((void)f.compile({1.0}));
  try {
    (void)f.compile({0.0});
    FAIL();
  } catch (const FormulaError& e) {
    EXPECT_EQ(e.column(), 9U);
    EXPECT_THAT(e.reason(), HasSubstr("division by zero"));
    EXPECT_THAT(e.reason(), HasSubstr("l = 0"));
  }
  // other constant parts that are not finite
  EXPECT_THAT(error_of("log(0) * s").reason(), HasSubstr("-inf"));
  EXPECT_THAT(error_of("sqrt(-1) + s").reason(), HasSubstr("nan"));
}

TEST(FormulaErrors, ParameterNamesMustBeNamesAndNotTheLanguagesOwn) {
  EXPECT_THROW((void)Formula("s", {"r2"}), FormulaError);
  EXPECT_THROW((void)Formula("s", {"exp"}), FormulaError);
  EXPECT_THROW((void)Formula("s", {"pi"}), FormulaError);
  EXPECT_THROW((void)Formula("s", {"2a"}), FormulaError);
  EXPECT_THROW((void)Formula("s", {"a", "a"}), FormulaError);
  const Formula f("s * a", {"a", "b"});
  EXPECT_TRUE(f.uses_parameter(0));
  EXPECT_FALSE(f.uses_parameter(1));
}

// ---- Hostile formulas are refused within bounds, never a crash or a hang.

TEST(FormulaHostile, AMillionCharactersAreRefusedByTheirLength) {
  const std::string huge(1000000, '1');
  EXPECT_THAT(error_of(huge).reason(), HasSubstr("more than the 10000"));
  const std::string sum = "s" + std::string(500000, '+') + "s";
  EXPECT_THAT(error_of(sum).reason(), HasSubstr("characters"));
}

TEST(FormulaHostile, DeepNestingIsRefusedAtItsDepth) {
  const std::string parens = std::string(4000, '(') + "s" + std::string(4000, ')');
  EXPECT_THAT(error_of(parens).reason(), HasSubstr("deeper than 64"));
  EXPECT_THAT(error_of(std::string(9000, '-') + "s").reason(), HasSubstr("deeper than 64"));
  std::string calls;
  for (int i = 0; i < 1500; ++i) calls += "exp(";
  calls += "s" + std::string(1500, ')');
  EXPECT_THAT(error_of(calls).reason(), HasSubstr("deeper than 64"));
  // within the limit it parses
  EXPECT_NO_THROW((void)Formula(std::string(40, '(') + "s" + std::string(40, ')'), {}));
}

TEST(FormulaHostile, PowerTowersAreRefusedOrBounded) {
  std::string tower = "2";
  for (int i = 0; i < 3000; ++i) tower += "^2";
  EXPECT_THAT(error_of(tower).reason(), HasSubstr("deeper than 64"));
  // a tower within the depth that overflows is a constant that is not finite
  EXPECT_THAT(error_of("s * 2^2^2^2^2^2").reason(), HasSubstr("inf"));
  // of the variables: within the depth it compiles, and is bounded by the instructions
  std::string r_tower = "r";
  for (int i = 0; i < 30; ++i) r_tower += "^r";
  const FormulaProgram p = Formula(r_tower, {}).compile({});
  EXPECT_NO_THROW(check_formula_program(p));
}

TEST(FormulaHostile, AFormulaLargerThanAProgramIsRefused) {
  // distinct terms, each an instruction or two: more than a program holds
  std::string many = "0";
  for (int i = 1; i < 400; ++i) many += fmt::format(" + exp(-r2 * {})", i);
  const FormulaError e = error_of(many);
  EXPECT_EQ(e.column(), 0U);
  EXPECT_THAT(e.reason(), HasSubstr("instructions"));
  // the same term many times is one term
  std::string same = "0";
  for (int i = 1; i < 400; ++i) same += " + exp(-r2)";
  const FormulaProgram p = Formula(same, {}).compile({});
  EXPECT_NEAR(evaluate_formula<double>(p, 0, 1, 1, 1), 399 * std::exp(-1.0), 1e-12);
}

// ---- The engine: Gram matrices against the reference, on every instruction set.

/// The formulas of the engine's tests, with their parameter values.
struct Case {
  std::string text;
  std::vector<std::string> names;
  std::vector<double> values;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"exp(-r2 / (2 * sigma^2))", {"sigma"}, {1.3}},
      {"exp(-r / sigma)", {"sigma"}, {1.3}},
      {"(s + c)^3", {"c"}, {1.0}},
      {"(s + c)^7", {"c"}, {0.5}},
      {"s", {}, {}},
      {"c", {"c"}, {0.7}},
      {"tanh(a * s + b)", {"a", "b"}, {0.3, -0.2}},
      {"(1 + r2 / (2 * alpha * l^2))^(-alpha)", {"alpha", "l"}, {0.7, 1.1}},
      {"(1 + r2 / c^2)^(-0.5)", {"c"}, {1.5}},
      {"(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l)", {"l"}, {0.9}},
      {"(1 + sqrt(5) * r / l + 5 * r2 / (3 * l^2)) * exp(-sqrt(5) * r / l)", {"l"}, {0.9}},
      {"exp(-2 * sin(pi * r / p)^2 / l^2)", {"p", "l"}, {2.0, 0.8}},
      // kernels are symmetric in x and z: xx and zz in the same roles
      {"cos(s) + log(1 + xx) * log(1 + zz) - max(s, 0.1) / min(xx, zz)", {}, {}},
      {"abs(s)^1.5 + (1 + r2)^(-1.5) + exp(-r2 / 8)^s", {}, {}},
      {"2 * exp(-r2) + 3 * (s + 1)^2 - 0.5", {}, {}},
  };
  return all;
}

std::vector<const char*> engines() {
  std::vector<const char*> out;
  for (const char* e : {"avx512", "avx2", "sse2", "generic"}) {
    if (detail::use_formula_engine(e)) out.push_back(e);
  }
  detail::use_formula_engine(nullptr);
  return out;
}

/// Restores the CPU's best engine when a test ends.
struct EngineScope {
  explicit EngineScope(const char* name) { EXPECT_TRUE(detail::use_formula_engine(name)); }
  ~EngineScope() { detail::use_formula_engine(nullptr); }
};

/// max over pairs of |K − k(x, z)| / max(1, |k|), k by evaluate_formula with r2 from the
/// same expansion the engine uses, so that only the engine's arithmetic is measured.
template <class T>
double worst_against_reference(const FormulaProgram& p, const arma::Mat<T>& K, const arma::mat& X,
                               const arma::mat& Z, bool symmetric) {
  double worst = 0;
  for (arma::uword j = 0; j < Z.n_cols; ++j) {
    for (arma::uword i = 0; i < X.n_cols; ++i) {
      const double s = arma::dot(X.col(i), Z.col(j));
      const double xx = arma::dot(X.col(i), X.col(i)), zz = arma::dot(Z.col(j), Z.col(j));
      const double r2 = symmetric && i == j ? 0.0 : std::max(0.0, xx + zz - 2 * s);
      const double want = evaluate_formula<double>(p, s, r2, xx, zz);
      const double got = static_cast<double>(K(i, j));
      worst = std::max(worst, std::fabs(got - want) / std::max(1.0, std::fabs(want)));
    }
  }
  return worst;
}

TEST(FormulaEngine, AgreesWithTheReferenceOnEveryInstructionSet) {
  arma::arma_rng::set_seed(3);
  const arma::mat X = 0.6 * arma::randn<arma::mat>(4, 300);  // more than a block of 256
  const arma::mat Z = 0.6 * arma::randn<arma::mat>(4, 270);
  for (const char* name : engines()) {
    EngineScope scope(name);
    for (const Case& c : cases()) {
      const FormulaProgram p = Formula(c.text, c.names).compile(c.values);
      arma::mat K(X.n_cols, Z.n_cols);
      gram::formula(p, X, Z, K);
      EXPECT_LT(worst_against_reference(p, K, X, Z, false), 1e-13) << name << ": " << c.text;
      arma::mat S(X.n_cols, X.n_cols);
      gram::formula(p, X, S);
      EXPECT_LT(worst_against_reference(p, S, X, X, true), 1e-13) << name << ": " << c.text;
      EXPECT_TRUE(S.is_symmetric()) << name << ": " << c.text;
    }
  }
}

TEST(FormulaEngine, Float32AgreesWithTheReferenceToFloat32Rounding) {
  arma::arma_rng::set_seed(4);
  const arma::fmat X = 0.6F * arma::randn<arma::fmat>(4, 300);
  const arma::fmat Z = 0.6F * arma::randn<arma::fmat>(4, 270);
  const arma::mat X64 = arma::conv_to<arma::mat>::from(X);
  const arma::mat Z64 = arma::conv_to<arma::mat>::from(Z);
  for (const char* name : engines()) {
    EngineScope scope(name);
    for (const Case& c : cases()) {
      const FormulaProgram p = Formula(c.text, c.names).compile(c.values);
      arma::fmat K(X.n_cols, Z.n_cols);
      gram::formula(p, X, Z, K);
      // a few float32 units of the inputs' rounding, the maths and the constants
      EXPECT_LT(worst_against_reference(p, K, X64, Z64, false), 2e-5) << name << ": " << c.text;
      arma::fmat S;
      gram::formula(p, X, S, Triangle::Both);
      EXPECT_LT(worst_against_reference(p, S, X64, X64, true), 2e-5) << name << ": " << c.text;
      EXPECT_TRUE(S.is_symmetric()) << name << ": " << c.text;
    }
  }
}

TEST(FormulaEngine, TheDiagonalOfKOfXHasR2ZeroExactly) {
  arma::arma_rng::set_seed(5);
  const arma::mat X = 30.0 * arma::randn<arma::mat>(6, 40);  // large norms: xx + zz − 2s ≠ 0
  const FormulaProgram r = Formula("r", {}).compile({});
  arma::mat K;
  gram::formula(r, X, K);
  for (arma::uword i = 0; i < X.n_cols; ++i) EXPECT_EQ(K(i, i), 0.0);
  const FormulaProgram g = Formula("exp(-r2)", {}).compile({});
  gram::formula(g, X, K);
  for (arma::uword i = 0; i < X.n_cols; ++i) EXPECT_EQ(K(i, i), 1.0);
}

TEST(FormulaEngine, TheLowerTriangleIsTheLowerTriangleOfTheWhole) {
  arma::arma_rng::set_seed(6);
  const arma::mat X = arma::randn<arma::mat>(3, 520);
  const FormulaProgram p = Formula("(1 + r2)^(-0.7)", {}).compile({});
  arma::mat all, lower(520, 520, arma::fill::value(-7.0));
  gram::formula(p, X, all);
  gram::formula(p, X, lower, Triangle::Lower);
  EXPECT_TRUE(arma::approx_equal(arma::trimatl(lower), arma::trimatl(all), "absdiff", 0.0));
}

TEST(FormulaEngine, AValueThatIsNotFiniteNamesItsPairAndValue) {
  arma::mat X = {{1.0, 2.0, -1.0}, {0.5, 1.0, 0.25}};
  const arma::mat Z = {{1.0, -3.0}, {1.0, 1.0}};
  arma::mat K(3, 2);
  // log(s) at s = 2·(−3) + 1·1 < 0 is NaN: the first such pair in column order
  try {
    gram::formula(Formula("log(s)", {}).compile({}), X, Z, K);
    FAIL();
  } catch (const NumericError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("(x_2, z_0)"));
    EXPECT_THAT(std::string(e.what()), HasSubstr("NaN"));
    EXPECT_THAT(std::string(e.what()), HasSubstr("s = -0.75"));
  }
  // 1/r2 is infinite on the diagonal of K(X, X), where r2 is 0
  try {
    gram::formula(Formula("1 / r2", {}).compile({}), X, K);
    FAIL();
  } catch (const NumericError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("(x_0, x_0)"));
    EXPECT_THAT(std::string(e.what()), HasSubstr("inf"));
  }
  // in float32, exp(s) overflows where float64 does not
  const arma::fmat F = {{10.0F, 10.0F}};
  arma::fmat KF;
  EXPECT_THROW(gram::formula(Formula("exp(s)", {}).compile({}), F, KF), NumericError);
}

TEST(FormulaEngine, RootsAndHalfPowersHoldAtTheEdgesOfTheRange) {
  // ‖x‖² of 0, a subnormal, 9, 1e300, and a negative s: the roots on every engine against the
  // C library's
  const arma::mat X = {{0.0, 1e-160, 3.0, 1e150, -2.0}};
  const arma::mat Z(1, 1, arma::fill::ones);
  for (const char* name : engines()) {
    EngineScope scope(name);
    for (const char* text : {"sqrt(xx)", "xx^(-0.5)", "xx^1.5", "xx^(-1.5)", "sqrt(s)", "r"}) {
      const FormulaProgram p = Formula(text, {}).compile({});
      arma::mat K(X.n_cols, 1);
      try {
        gram::formula(p, X, Z, K);
      } catch (const NumericError&) {
        // an infinite or NaN value is reported; the values are compared below all the same
      }
      for (arma::uword i = 0; i < X.n_cols; ++i) {
        const double x = X(0, i);
        const double want = evaluate_formula<double>(p, x, (x - 1) * (x - 1), x * x, 1.0);
        const double got = K(i, 0);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got)) << name << " " << text << " at " << x;
        } else if (std::isinf(want) || want == 0) {
          EXPECT_EQ(got, want) << name << " " << text << " at " << x;
        } else {
          EXPECT_NEAR(got / want, 1.0, 1e-15) << name << " " << text << " at " << x;
        }
      }
    }
  }
}

TEST(FormulaEngine, KernelsOfNormsOrConstantsNeedNoProduct) {
  const arma::mat X = {{1.0, 2.0}, {0.0, 1.0}};
  arma::mat K;
  gram::formula(Formula("xx * zz + 1", {}).compile({}), X, K);
  EXPECT_EQ(K(0, 1), 1.0 * 5.0 + 1);
  gram::formula(Formula("2.5", {}).compile({}), X, K);
  EXPECT_TRUE(arma::all(arma::vectorise(K) == 2.5));
  // no dimension at all: s = 0, r2 = 0
  const arma::mat E(0, 3);
  gram::formula(Formula("exp(-r2) + s", {}).compile({}), E, K);
  EXPECT_TRUE(arma::all(arma::vectorise(K) == 1.0));
}

// ---- The SDK's vector maths.

/// Distance in units in the last place of `want`.
double ulps(double got, double want) {
  if (got == want) return 0;
  return std::fabs(got - want) / std::fabs(std::nextafter(want, INFINITY) - want);
}

TEST(VectorMath, VlogIsWithinOneUlp) {
  double worst = 0;
  for (double x = 1e-300; x < 1e300; x *= 1.37) worst = std::max(worst, ulps(vlog(x), std::log(x)));
  for (double x = 0.5; x < 2.0; x += 1e-5) worst = std::max(worst, ulps(vlog(x), std::log(x)));
  EXPECT_LE(worst, 1.0);
  EXPECT_NEAR(vlog(4.9e-324), std::log(4.9e-324), 1e-12);  // subnormal
  EXPECT_EQ(vlog(1.0), 0.0);
  EXPECT_EQ(vlog(0.0), -INFINITY);
  EXPECT_TRUE(std::isnan(vlog(-1.0)));
  EXPECT_EQ(vlog(INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(vlog(NAN)));
}

TEST(VectorMath, VlogfIsWithinOneUlpOfFloat32) {
  float worst = 0;
  for (float x = 1e-37F; x < 1e37F; x *= 1.11F) {
    const float want = std::log(x);
    const float got = vlogf(x);
    worst =
        std::max(worst, std::fabs(got - want) / std::fabs(std::nextafter(want, INFINITY) - want));
  }
  EXPECT_LE(worst, 1.0F);
  EXPECT_EQ(vlogf(0.0F), -INFINITY);
  EXPECT_TRUE(std::isnan(vlogf(-1.0F)));
}

TEST(VectorMath, VpowIsStdPowToTheStatedBound) {
  for (const double x : {1e-10, 0.3, 1.0, 1.7, 25.0, 1e10}) {
    for (const double y : {-3.3, -0.5, 0.25, 1.0, 2.0, 7.9}) {
      const double want = std::pow(x, y);
      const double bound = (2 + std::fabs(y * std::log(x))) * 0x1p-53 + 2e-15;
      EXPECT_NEAR(vpow(x, y) / want, 1.0, bound) << x << "^" << y;
      const auto xf = static_cast<float>(x), yf = static_cast<float>(y);
      const double want32 = std::pow(static_cast<double>(xf), static_cast<double>(yf));
      if (want32 < 1e-37 || want32 > 1e37) continue;  // beyond float32's normal range
      EXPECT_NEAR(static_cast<double>(vpowf(xf, yf)) / want32, 1.0,
                  (4 + std::fabs(y * std::log(x))) * 0x1p-24)
          << x << "^" << y;
    }
  }
  EXPECT_NEAR(vpow(-2.0, 3.0), -8.0, 1e-14);
  EXPECT_NEAR(vpow(-2.0, 2.0), 4.0, 1e-14);
  EXPECT_TRUE(std::isnan(vpow(-2.0, 0.5)));
  EXPECT_EQ(vpow(0.0, 2.0), 0.0);
  EXPECT_EQ(vpow(0.0, -1.0), INFINITY);
  EXPECT_EQ(vpow(NAN, 0.0), 1.0);
  EXPECT_EQ(vpow(1.0, NAN), 1.0);
}

}  // namespace
}  // namespace kexp::test
