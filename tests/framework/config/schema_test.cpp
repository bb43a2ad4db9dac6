// Parameters checked against a plugin's schema: types, bounds, choices, defaults, and
// the messages a user sees.
#include "config/schema.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

constexpr ParamSpec kSchema[] = {
    param::real("sigma", "1.0", "bandwidth").greater_than(0).log_scale(),
    param::integer("degree", "2", "degree").at_least(1).at_most(20),
    param::boolean("center", "false", "center first"),
    param::choice("map", "none", "none|taylor|rff", "feature map"),
    param::real("nu", nullptr, "required smoothness").at_least(0),
};

std::vector<ParamSpec> schema() { return {std::begin(kSchema), std::end(kSchema)}; }

ComponentSpec component(std::vector<std::pair<std::string, std::vector<std::string>>> given) {
  ComponentSpec c;
  c.plugin = "k";
  c.key = "kernels[0]";
  c.where = {"exp.yaml", 3, 5};
  int line = 4;
  for (auto& [name, values] : given) {
    ParamSetting s;
    s.name = name;
    s.key = "kernels[0]." + name;
    s.where = {"exp.yaml", line, 12};
    s.swept = values.size() > 1;
    for (auto& v : values) s.values.push_back({v, {"exp.yaml", line, 12}, false});
    c.params.push_back(s);
    ++line;
  }
  return c;
}

std::string error_of(std::vector<std::pair<std::string, std::vector<std::string>>> given) {
  try {
    resolve_params(schema(), component(std::move(given)), "kernel plugin 'k'");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Schema, FillsDefaultsAndConvertsTypes) {
  const auto r = resolve_params(schema(), component({{"nu", {"0.5"}}, {"degree", {"3", "4"}}}),
                                "kernel plugin 'k'");
  ASSERT_EQ(r.size(), 5U);
  EXPECT_EQ(std::get<double>(r[0].values[0]), 1.0);
  EXPECT_FALSE(r[0].given);
  ASSERT_EQ(r[1].values.size(), 2U);
  EXPECT_EQ(std::get<std::int64_t>(r[1].values[1]), 4);
  EXPECT_TRUE(r[1].swept);
  EXPECT_EQ(std::get<bool>(r[2].values[0]), false);
  EXPECT_EQ(std::get<std::string>(r[3].values[0]), "none");
  EXPECT_EQ(std::get<double>(r[4].values[0]), 0.5);
}

TEST(Schema, UnknownParameterNamesTheNearestAndTheLocation) {
  const std::string e = error_of({{"nu", {"1"}}, {"sigmaa", {"1"}}});
  EXPECT_THAT(
      e,
      HasSubstr("exp.yaml:5:12: kernels[0].sigmaa: kernel plugin 'k' has no parameter 'sigmaa'"));
  EXPECT_THAT(e, HasSubstr("did you mean 'sigma'?"));
}

TEST(Schema, ANameWrittenInAnotherCaseIsReadAsTheSchemas) {
  // `Sigma` is sigma (as LIBSVM's `C` is svc's `c`), its zip group follows; a name that
  // matches none stays as written, for resolve_params to refuse with the nearest name
  ComponentSpec c = component({{"Sigma", {"0.5", "2"}}, {"degree", {"3", "4"}}, {"Nuu", {"1"}}});
  c.zips.push_back({{"Sigma", "degree"}, {}});
  const ComponentSpec renamed = with_schema_names(schema(), c);
  EXPECT_EQ(renamed.params[0].name, "sigma");
  EXPECT_EQ(renamed.params[0].key, "kernels[0].Sigma");  // messages name what was written
  EXPECT_EQ(renamed.params[2].name, "Nuu");
  EXPECT_EQ(renamed.zips[0].names, (std::vector<std::string>{"sigma", "degree"}));
  // both spellings written: left as written, and refused as an unknown parameter
  const ComponentSpec both =
      with_schema_names(schema(), component({{"sigma", {"1"}}, {"SIGMA", {"2"}}}));
  EXPECT_EQ(both.params[1].name, "SIGMA");
}

TEST(Schema, WrongTypesAreRejected) {
  EXPECT_THAT(error_of({{"nu", {"1"}}, {"sigma", {"wide"}}}),
              HasSubstr("exp.yaml:5:12: kernels[0].sigma must be a real number, got 'wide'"));
  EXPECT_THAT(error_of({{"nu", {"1"}}, {"degree", {"2.5"}}}),
              HasSubstr("kernels[0].degree must be an integer, got '2.5'"));
  EXPECT_THAT(error_of({{"nu", {"1"}}, {"center", {"maybe"}}}),
              HasSubstr("kernels[0].center must be true or false, got 'maybe'"));
  EXPECT_THAT(
      error_of({{"nu", {"1"}}, {"map", {"taylr"}}}),
      HasSubstr(
          "kernels[0].map must be one of none, taylor, rff, got 'taylr'; did you mean 'taylor'?"));
}

TEST(Schema, AGeneratorsValuesForAnIntegerAreRoundedAndARepeatIsRefused) {
  // logspace: [0, 1, 3] gives 1, 3.162…, 10: an integer sweep of 1, 3, 10.
  ComponentSpec c = component({{"nu", {"1"}}, {"degree", {"1", "3.1622776601683795", "10"}}});
  for (SweepValue& v : c.params[1].values) v.from_generator = true;
  c.params[1].values[2].text = "10";
  ParamSpec degree = kSchema[1];
  degree.max = 100;
  const std::vector<ParamSpec> specs = {kSchema[4], degree};
  const auto r = resolve_params(specs, c, "kernel plugin 'k'");
  ASSERT_EQ(r[1].values.size(), 3U);
  EXPECT_EQ(std::get<std::int64_t>(r[1].values[1]), 3);
  // Written by hand, 3.16 is still not an integer.
  c.params[1].values[1].from_generator = false;
  try {
    (void)resolve_params(specs, c, "kernel plugin 'k'");
    ADD_FAILURE() << "3.16 written by hand was accepted for an integer";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("must be an integer, got '3.1622776601683795'"));
  }
  // Two steps that round to one integer: refused, with what to change.
  c.params[1].values[1].from_generator = true;
  c.params[1].values[1].text = "1.2";
  try {
    (void)resolve_params(specs, c, "kernel plugin 'k'");
    ADD_FAILURE() << "a repeat after rounding was accepted";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ask it for fewer values or a wider range"));
  }
}

TEST(Schema, OutOfRangeValuesNameTheBound) {
  EXPECT_THAT(error_of({{"nu", {"1"}}, {"sigma", {"-1"}}}),
              HasSubstr("exp.yaml:5:12: kernels[0].sigma must be > 0, got -1"));
  EXPECT_THAT(error_of({{"nu", {"1"}}, {"sigma", {"0"}}}), HasSubstr("must be > 0, got 0"));
  EXPECT_THAT(error_of({{"nu", {"1"}}, {"degree", {"2", "21"}}}),
              HasSubstr("kernels[0].degree must be in [1, 20], got 21"));
  EXPECT_THAT(error_of({{"nu", {"1"}}, {"degree", {"-3"}}}), HasSubstr("got -3"));
  EXPECT_THAT(error_of({{"nu", {"1"}}, {"sigma", {"nan"}}}), HasSubstr("must be a real number"));
}

TEST(Schema, RequiredParameterMustBeGiven) {
  EXPECT_THAT(error_of({}),
              HasSubstr("exp.yaml:3:5: kernels[0].nu is required by kernel plugin 'k'"));
}

TEST(Schema, DatasetsGetTheCommonSplitParameters) {
  const PluginDescriptor d{
      kAbiVersion, "",     PluginKind::Dataset, PluginInfo{"data", "1", "", flags::regression},
      nullptr,     nullptr};
  const auto s = schema_of(d);
  ASSERT_EQ(s.size(), 2U);
  EXPECT_STREQ(s[0].name, "test_fraction");
  EXPECT_STREQ(s[1].name, "standardize");
  EXPECT_EQ(describe_bounds(s[0]), "in (0, 1)");
}

TEST(Schema, AValueSweptTwiceIsRefusedAtTheRepeat) {
  // 1 and 1.0 are one real: three rows with one cell id, before this was refused
  EXPECT_EQ(error_of({{"nu", {"0.5"}}, {"sigma", {"1", "2", "1.0"}}}),
            "exp.yaml:5:12: kernels[0].sigma: the value 1 ('1.0') is swept twice, as value 1 "
            "and value 3: both would be one cell with one id; remove the repeat");
  EXPECT_THAT(error_of({{"nu", {"0.5"}}, {"map", {"rff", "taylor", "rff"}}}),
              HasSubstr("the value rff ('rff') is swept twice, as value 1 and value 3"));
  EXPECT_EQ(error_of({{"nu", {"0.5"}}, {"sigma", {"1", "1.5"}}}), "(no error)");
}

TEST(Schema, FormatValueRoundTrips) {
  EXPECT_EQ(format_value(ParamValue{0.1}), "0.1");
  EXPECT_EQ(format_value(ParamValue{1e-6}), "1e-06");
  EXPECT_EQ(format_value(ParamValue{std::int64_t{3}}), "3");
  EXPECT_EQ(std::stod(format_value(ParamValue{1.0 / 3.0})), 1.0 / 3.0);
}

}  // namespace
}  // namespace kexp::core
