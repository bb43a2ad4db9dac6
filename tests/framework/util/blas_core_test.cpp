// The choice of OpenBLAS kernels: the user's setting wins, kexp=keep keeps OpenBLAS's,
// and kexp asks for SkylakeX only where OpenBLAS chose AVX2 kernels on an AVX-512 CPU of
// a DYNAMIC_ARCH build; after the restart the marker tells kexp's setting from a user's.
#include "util/blas_core.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace kexp::core {
namespace {

const std::vector<std::string> kDebianOpenBlas = {"Cooperlake", "SkylakeX", "Haswell",
                                                  "Sandybridge", "Prescott"};

CpuFeatures sse3() {
  CpuFeatures c;
  c.sse3 = true;
  return c;
}
CpuFeatures avx() {
  CpuFeatures c = sse3();
  c.avx = true;
  return c;
}
CpuFeatures avx2() {
  CpuFeatures c = avx();
  c.avx2_fma = true;
  return c;
}
CpuFeatures avx512() {
  CpuFeatures c = avx2();
  c.avx512 = true;
  return c;
}
CpuFeatures avx512_bf16() {
  CpuFeatures c = avx512();
  c.avx512_bf16 = true;
  return c;
}

BlasCoreFacts zen4_with_debian_openblas() {
  BlasCoreFacts f;
  f.selected = "Haswell";
  f.dynamic_arch = true;
  f.cpu = avx512_bf16();
  f.offered = kDebianOpenBlas;
  return f;
}

// OpenBLAS's choice × the CPU's features → kexp's: "" keeps OpenBLAS's.
struct Row {
  const char* selected;
  CpuFeatures cpu;
  const char* chosen;
};

TEST(ChooseBlasCore, ReplacesKernelsNarrowerThanTheCpuByTheWidestItCanExecute) {
  const Row table[] = {
      // an Intel Xeon of family 6, model 207, unknown to OpenBLAS 0.3.21
      {"Prescott", avx512_bf16(), "Cooperlake"},
      {"Prescott", avx512(), "SkylakeX"},
      {"Prescott", avx2(), "Haswell"},
      {"Prescott", avx(), "Sandybridge"},
      {"Prescott", sse3(), ""},
      {"Nehalem", avx2(), "Haswell"},
      {"Core2", avx512(), "SkylakeX"},
      {"Sandybridge", avx512(), "SkylakeX"},
      {"Sandybridge", avx2(), "Haswell"},
      {"Sandybridge", avx(), ""},
      // AMD's Zen 4, and Zen 3 without AVX-512
      {"Haswell", avx512_bf16(), "Cooperlake"},
      {"Zen", avx512(), "SkylakeX"},
      {"zen", avx512(), "SkylakeX"},
      {"Zen", avx2(), ""},
      {"Haswell", avx2(), ""},
      {"Excavator", avx2(), ""},
      // as wide as the CPU: SkylakeX and Cooperlake run the same DGEMM
      {"SkylakeX", avx512_bf16(), ""},
      {"SkylakeX", avx512(), ""},
      {"Cooperlake", avx512_bf16(), ""},
      // a core type kexp does not know counts as the narrowest
      {"NewCore", avx2(), "Haswell"},
  };
  for (const Row& row : table) {
    BlasCoreFacts f = zen4_with_debian_openblas();
    f.selected = row.selected;
    f.cpu = row.cpu;
    const BlasCoreChoice c = choose_blas_core(f);
    const std::string label = std::string(row.selected) + " → " + row.chosen;
    if (*row.chosen == '\0') {
      EXPECT_FALSE(c.restart) << label;
      EXPECT_EQ(c.by, BlasCoreChoice::By::OpenBlas) << label;
      EXPECT_EQ(c.core, row.selected) << label;
    } else {
      EXPECT_TRUE(c.restart) << label;
      EXPECT_EQ(c.by, BlasCoreChoice::By::Kexp) << label;
      EXPECT_EQ(c.core, row.chosen) << label;
      EXPECT_NE(c.why.find(row.selected), std::string::npos) << c.why;
    }
  }
}

TEST(ChooseBlasCore, ChoosesOnlyKernelsTheInstalledOpenBlasHas) {
  BlasCoreFacts f = zen4_with_debian_openblas();
  f.selected = "Prescott";
  f.offered = {"Haswell", "Prescott"};  // an OpenBLAS without AVX-512 kernels
  EXPECT_EQ(choose_blas_core(f).core, "Haswell");
  f.offered = {"Prescott"};
  EXPECT_FALSE(choose_blas_core(f).restart);
  f.offered.clear();
  EXPECT_FALSE(choose_blas_core(f).restart);
}

TEST(ChooseBlasCore, KeepsOpenBlasChoiceInABuildForOneCpu) {
  BlasCoreFacts f = zen4_with_debian_openblas();
  f.dynamic_arch = false;
  const BlasCoreChoice c = choose_blas_core(f);
  EXPECT_FALSE(c.restart);
  EXPECT_EQ(c.by, BlasCoreChoice::By::OpenBlas);
  EXPECT_EQ(c.core, "Haswell");
  EXPECT_NE(c.why.find("DYNAMIC_ARCH"), std::string::npos) << c.why;
}

TEST(WidestKernels, FollowTheFeatureBits) {
  EXPECT_EQ(widest_kernels(avx512_bf16(), kDebianOpenBlas), "Cooperlake");
  EXPECT_EQ(widest_kernels(avx512(), kDebianOpenBlas), "SkylakeX");
  EXPECT_EQ(widest_kernels(avx2(), kDebianOpenBlas), "Haswell");
  EXPECT_EQ(widest_kernels(avx(), kDebianOpenBlas), "Sandybridge");
  EXPECT_EQ(widest_kernels(sse3(), kDebianOpenBlas), "Prescott");
  EXPECT_EQ(widest_kernels(CpuFeatures{}, kDebianOpenBlas), "");
  EXPECT_EQ(kernels_kexp_chooses(), kDebianOpenBlas);
}

TEST(ChooseBlasCore, TheUsersSettingAlwaysWins) {
  BlasCoreFacts f = zen4_with_debian_openblas();
  f.user_setting = "Haswell";
  const BlasCoreChoice c = choose_blas_core(f);
  EXPECT_FALSE(c.restart);
  EXPECT_EQ(c.by, BlasCoreChoice::By::User);
  // kept, and the reason says that the CPU could run wider kernels
  EXPECT_EQ(c.core, f.selected);
  EXPECT_THAT(c.why, ::testing::StartsWith("OPENBLAS_CORETYPE=Haswell was set in the environment; "
                                           "this CPU and OpenBLAS could run the wider "));
  EXPECT_THAT(c.why, ::testing::HasSubstr("unset OPENBLAS_CORETYPE"));
  // Also when it names the core kexp would have chosen, without kexp's marker; nothing
  // wider to point to then.
  f.user_setting = widest_kernels(f.cpu, f.offered);
  EXPECT_EQ(choose_blas_core(f).by, BlasCoreChoice::By::User);
  EXPECT_EQ(choose_blas_core(f).why,
            "OPENBLAS_CORETYPE=" + f.user_setting + " was set in the environment");
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
  f.replaced = "Prescott";
  f.selected = "SkylakeX";
  const BlasCoreChoice c = choose_blas_core(f);
  EXPECT_FALSE(c.restart);  // never twice
  EXPECT_EQ(c.by, BlasCoreChoice::By::Kexp);
  EXPECT_NE(c.why.find("AVX-512"), std::string::npos) << c.why;
  EXPECT_NE(c.why.find("Prescott"), std::string::npos) << c.why;
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
