// The execution target: the names of its enums, their parsing, the parameter specs a
// solver declares with kexp::target, and ExecutionTarget::of on a solver's parameters.
#include "kexp/execution_target.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "kexp/error.hpp"
#include "kexp/linalg.hpp"

namespace kexp {
namespace {

using ::testing::HasSubstr;

TEST(ExecutionTarget, EachDeviceAndPrecisionReadsBackFromItsName) {
  for (const Device d : {Device::cpu, Device::cuda, Device::host}) {
    EXPECT_EQ(parse_device(to_string(d)), d);
  }
  for (const Precision p : {Precision::Double, Precision::Single, Precision::Mixed}) {
    EXPECT_EQ(parse_precision(to_string(p)), p);
    EXPECT_EQ(linalg::precision_named(to_string(p)), p);
  }
  EXPECT_STREQ(to_string(Device::cuda), "cuda");
  EXPECT_STREQ(to_string(Precision::Mixed), "mixed");
}

TEST(ExecutionTarget, AnUnknownNameIsRefusedNamingTheChoices) {
  try {
    (void)parse_device("gpu");
    FAIL() << "gpu is no device";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "device must be cpu, cuda or host, got 'gpu'");
  }
  try {
    (void)parse_precision("half");
    FAIL() << "half is no precision";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "precision must be double, single or mixed, got 'half'");
  }
  EXPECT_THROW((void)parse_device("CUDA"), InvalidArgument) << "names are exact";
}

TEST(ExecutionTarget, TheSpecsDeclareTheOneNameWithCpuAndDoubleByDefault) {
  constexpr ParamSpec device = target::device("cpu|cuda", "where it runs");
  constexpr ParamSpec precision = target::precision("double|mixed", "how it rounds");
  static_assert(device.type == ParamType::String && precision.type == ParamType::String);
  EXPECT_STREQ(device.name, "device");
  EXPECT_STREQ(device.default_value, "cpu");
  EXPECT_STREQ(device.choices, "cpu|cuda");
  EXPECT_STREQ(device.doc, "where it runs");
  EXPECT_STREQ(precision.name, "precision");
  EXPECT_STREQ(precision.default_value, "double");
  EXPECT_STREQ(precision.choices, "double|mixed");
  // the same spec as the one written by hand, so that cell ids do not move
  constexpr ParamSpec by_hand = param::choice("device", "cpu", "cpu|cuda", "where it runs");
  EXPECT_STREQ(device.name, by_hand.name);
  EXPECT_STREQ(device.default_value, by_hand.default_value);
}

TEST(ExecutionTarget, OfReadsTheParametersAndDefaultsWhatIsAbsent) {
  Params none;
  none.set("lambda", 0.5);
  EXPECT_EQ(ExecutionTarget::of(none), ExecutionTarget{});
  EXPECT_EQ(ExecutionTarget::of(none).device, Device::cpu);
  EXPECT_EQ(ExecutionTarget::of(none).precision, Precision::Double);
  EXPECT_FALSE(ExecutionTarget::of(none).device_code());

  Params both;
  both.set("device", std::string("cuda"));
  both.set("precision", std::string("single"));
  const ExecutionTarget t = ExecutionTarget::of(both);
  EXPECT_EQ(t.device, Device::cuda);
  EXPECT_EQ(t.precision, Precision::Single);
  EXPECT_TRUE(t.device_code());
  EXPECT_NE(t, ExecutionTarget{});

  Params precision_only;
  precision_only.set("precision", std::string("mixed"));
  EXPECT_EQ(ExecutionTarget::of(precision_only), (ExecutionTarget{Device::cpu, Precision::Mixed}));

  Params wrong;
  wrong.set("device", std::string("tpu"));
  EXPECT_THROW((void)ExecutionTarget::of(wrong), InvalidArgument);
}

}  // namespace
}  // namespace kexp
