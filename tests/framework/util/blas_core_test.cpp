// The choice of OpenBLAS kernels: the user's setting wins, kexp=keep keeps OpenBLAS's,
// and kexp asks for SkylakeX only where OpenBLAS chose AVX2 kernels on an AVX-512 CPU of
// a DYNAMIC_ARCH build; after the restart the marker tells kexp's setting from a user's.
#include "util/blas_core.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace kexp::core {
namespace {

BlasCoreFacts zen4_with_debian_openblas() {
  BlasCoreFacts f;
  f.selected = "Haswell";
  f.dynamic_arch = true;
  f.cpu_has_avx512 = true;
  return f;
}

TEST(ChooseBlasCore, AsksForTheAvx512KernelsWhereOpenBlasChoseAvx2Ones) {
  for (const char* selected : {"Haswell", "Zen", "zen", "haswell"}) {
    BlasCoreFacts f = zen4_with_debian_openblas();
    f.selected = selected;
    const BlasCoreChoice c = choose_blas_core(f);
    EXPECT_TRUE(c.restart) << selected;
    EXPECT_EQ(c.by, BlasCoreChoice::By::Kexp);
    EXPECT_EQ(c.core, "SkylakeX");
    EXPECT_NE(c.why.find(selected), std::string::npos) << c.why;
  }
}

TEST(ChooseBlasCore, KeepsOpenBlasChoiceOtherwise) {
  BlasCoreFacts no_avx512 = zen4_with_debian_openblas();
  no_avx512.cpu_has_avx512 = false;
  BlasCoreFacts fixed_build = zen4_with_debian_openblas();
  fixed_build.dynamic_arch = false;
  BlasCoreFacts already_wide = zen4_with_debian_openblas();
  already_wide.selected = "SkylakeX";
  BlasCoreFacts older = zen4_with_debian_openblas();
  older.selected = "Sandybridge";
  for (const BlasCoreFacts& f : {no_avx512, fixed_build, already_wide, older}) {
    const BlasCoreChoice c = choose_blas_core(f);
    EXPECT_FALSE(c.restart) << f.selected;
    EXPECT_EQ(c.by, BlasCoreChoice::By::OpenBlas);
    EXPECT_EQ(c.core, f.selected);
  }
}

TEST(ChooseBlasCore, TheUsersSettingAlwaysWins) {
  BlasCoreFacts f = zen4_with_debian_openblas();
  f.user_setting = "Haswell";
  const BlasCoreChoice c = choose_blas_core(f);
  EXPECT_FALSE(c.restart);
  EXPECT_EQ(c.by, BlasCoreChoice::By::User);
  EXPECT_EQ(c.why, "OPENBLAS_CORETYPE=Haswell was set in the environment");
  // Also when it names the core kexp would have chosen, without kexp's marker.
  f.user_setting = "SkylakeX";
  EXPECT_EQ(choose_blas_core(f).by, BlasCoreChoice::By::User);
  // A marker that does not match the setting is not kexp's.
  f.kexp_marker = "Zen";
  EXPECT_EQ(choose_blas_core(f).by, BlasCoreChoice::By::User);
}

TEST(ChooseBlasCore, KeepTurnsTheChoiceOff) {
  BlasCoreFacts f = zen4_with_debian_openblas();
  f.preference = "keep";
  const BlasCoreChoice c = choose_blas_core(f);
  EXPECT_FALSE(c.restart);
  EXPECT_EQ(c.by, BlasCoreChoice::By::OpenBlas);
  EXPECT_NE(c.why.find("KEXP_OPENBLAS_CORETYPE=keep"), std::string::npos) << c.why;
}

TEST(ChooseBlasCore, AfterTheRestartTheMarkerSaysKexpChose) {
  BlasCoreFacts f = zen4_with_debian_openblas();
  f.user_setting = "SkylakeX";
  f.kexp_marker = "SkylakeX";
  f.selected = "SkylakeX";
  const BlasCoreChoice c = choose_blas_core(f);
  EXPECT_FALSE(c.restart);  // never twice
  EXPECT_EQ(c.by, BlasCoreChoice::By::Kexp);
  EXPECT_NE(c.why.find("AVX-512"), std::string::npos) << c.why;
  EXPECT_STREQ(to_string(c.by), "kexp");
}

// scripts/test-numerics.sh runs the numerical tests under each core type it names in
// KEXP_TEST_BLAS_CORE: this checks that the named kernels are the ones running, since
// OpenBLAS falls back to its own choice, saying nothing, for a name it does not know.
TEST(OpenBlasCore, IsTheOneTheNumericalStageNames) {
  const char* named = std::getenv("KEXP_TEST_BLAS_CORE");
  if (named == nullptr) GTEST_SKIP() << "KEXP_TEST_BLAS_CORE is not set";
  EXPECT_EQ(openblas_core(), named);
}

}  // namespace
}  // namespace kexp::core
