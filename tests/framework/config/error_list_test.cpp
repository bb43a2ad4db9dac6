// Errors gathered over one pass: kept in the file's order, each once, the list capped.
#include "config/error_list.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace kexp::core {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ConfigError at(int line, const std::string& message) {
  return ConfigError(SourceLocation{"exp.yaml", line, 3}, "key", message);
}

std::string thrown(const ErrorList& errors) {
  try {
    errors.throw_if_any();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

TEST(ErrorList, AttemptKeepsAConfigErrorAndGoesOn) {
  ErrorList errors;
  EXPECT_TRUE(errors.attempt([] {}));
  EXPECT_FALSE(errors.attempt([] { throw at(4, "first"); }));
  EXPECT_FALSE(errors.attempt([] { throw at(2, "second"); }));
  EXPECT_EQ(errors.size(), 2U);
  EXPECT_THROW(errors.attempt([] { throw DataError("not a config error"); }), DataError);
}

TEST(ErrorList, OneErrorIsThrownAsItWas) {
  ErrorList errors;
  EXPECT_EQ(thrown(errors), "(nothing thrown)");
  errors.add(at(4, "sigma must be > 0"));
  try {
    errors.throw_if_any();
    FAIL() << "nothing thrown";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "exp.yaml:4:3: sigma must be > 0");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.key(), "key");
  }
}

TEST(ErrorList, SeveralAreListedInTheFilesOrderEachOnce) {
  ErrorList errors;
  errors.add(ConfigError(SourceLocation{"--set kernels[0].sigma=-1", 0, 0}, "k", "from --set"));
  errors.add(at(9, "later"));
  errors.add(at(2, "earlier"));
  errors.add(at(2, "earlier"));  // the same error reached twice
  EXPECT_EQ(thrown(errors),
            "3 errors in the experiment; fix them all, then run again:\n"
            "  exp.yaml:2:3: earlier\n"
            "  exp.yaml:9:3: later\n"
            "  --set kernels[0].sigma=-1: from --set");
}

TEST(ErrorList, ALongListSaysHowManyMoreThereAre) {
  ErrorList errors;
  for (int line = 1; line <= static_cast<int>(ErrorList::kMaxShown) + 5; ++line) {
    errors.add(at(line, "error " + std::to_string(line)));
  }
  const std::string message = thrown(errors);
  EXPECT_THAT(message, HasSubstr("25 errors in the experiment"));
  EXPECT_THAT(message, HasSubstr("exp.yaml:20:3: error 20\n  … and 5 more"));
  EXPECT_THAT(message, Not(HasSubstr("error 21")));
}

TEST(ErrorList, ListsInsideListsAreFlattenedAndLinesIndented) {
  ErrorList inner;
  inner.add(at(5, "five"));
  inner.add(at(3, "three\nsearched: /plugins"));
  ErrorList outer;
  outer.add(at(1, "one"));
  EXPECT_FALSE(outer.attempt([&] { inner.throw_if_any(); }));
  EXPECT_EQ(outer.size(), 3U);
  EXPECT_EQ(thrown(outer),
            "3 errors in the experiment; fix them all, then run again:\n"
            "  exp.yaml:1:3: one\n"
            "  exp.yaml:3:3: three\n"
            "    searched: /plugins\n"
            "  exp.yaml:5:3: five");
}

TEST(ErrorList, KeepsTheFirstFiftyAndCountsTheRestThroughNestedLists) {
  // 10⁵ errors in an inner list (a sweep's bad values), passed to an outer one: the
  // first kMaxKept are kept, every one is counted once, a repeat of a kept one is not.
  ErrorList inner;
  for (int i = 1; i <= 100000; ++i) inner.add(at(i, "bad value " + std::to_string(i)));
  inner.add(at(7, "bad value 7"));
  EXPECT_EQ(inner.size(), 100000U);
  ErrorList outer;
  outer.add(at(200000, "another"));
  EXPECT_FALSE(outer.attempt([&] { inner.throw_if_any(); }));
  EXPECT_EQ(outer.size(), 100001U);
  try {
    outer.throw_if_any();
    FAIL() << "expected ConfigErrors";
  } catch (const ConfigErrors& e) {
    EXPECT_EQ(e.errors().size(), ErrorList::kMaxKept);
    EXPECT_EQ(e.more(), 100001U - ErrorList::kMaxKept);
    EXPECT_THAT(std::string(e.what()), HasSubstr("100001 errors in the experiment"));
    EXPECT_THAT(std::string(e.what()), HasSubstr("… and 99981 more"));
  }
}

}  // namespace
}  // namespace kexp::core
