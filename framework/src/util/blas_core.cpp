#include "util/blas_core.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <strings.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

extern "C" {
char* openblas_get_config(void);
char* openblas_get_corename(void);
}

namespace kexp::core {

namespace {

constexpr const char* kCoreVariable = "OPENBLAS_CORETYPE";
constexpr const char* kPreferenceVariable = "KEXP_OPENBLAS_CORETYPE";
constexpr const char* kMarkerVariable = "KEXP_OPENBLAS_CORETYPE_SET";
constexpr const char* kWide = "SkylakeX";

std::string variable(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && strncasecmp(a.c_str(), b.c_str(), a.size()) == 0;
}

/// OpenBLAS's kernels for AVX2 without AVX-512.
bool avx2_kernels(const std::string& core) {
  return same_name(core, "Haswell") || same_name(core, "Zen");
}

}  // namespace

const char* to_string(BlasCoreChoice::By by) {
  switch (by) {
    case BlasCoreChoice::By::Kexp:
      return "kexp";
    case BlasCoreChoice::By::User:
      return "user";
    case BlasCoreChoice::By::OpenBlas:
      break;
  }
  return "openblas";
}

BlasCoreChoice choose_blas_core(const BlasCoreFacts& facts) {
  BlasCoreChoice c;
  c.core = facts.selected;
  if (!facts.user_setting.empty()) {
    if (!facts.kexp_marker.empty() && same_name(facts.kexp_marker, facts.user_setting)) {
      c.by = BlasCoreChoice::By::Kexp;
      c.why = fmt::format(
          "the CPU has AVX-512 but OpenBLAS selected its AVX2 kernels; kexp set {}={} (turn "
          "this off with {}=keep)",
          kCoreVariable, facts.user_setting, kPreferenceVariable);
    } else {
      c.by = BlasCoreChoice::By::User;
      c.why = fmt::format("{}={} was set in the environment", kCoreVariable, facts.user_setting);
    }
    return c;
  }
  if (same_name(facts.preference, "keep")) {
    c.why = fmt::format("OpenBLAS's own choice, kept by {}=keep", kPreferenceVariable);
    return c;
  }
  if (facts.dynamic_arch && facts.cpu_has_avx512 && avx2_kernels(facts.selected)) {
    c.by = BlasCoreChoice::By::Kexp;
    c.core = kWide;
    c.restart = true;
    c.why = fmt::format("the CPU has AVX-512 but OpenBLAS selected {}", facts.selected);
    return c;
  }
  c.why = "OpenBLAS's own choice";
  return c;
}

BlasCoreFacts blas_core_facts() {
  BlasCoreFacts f;
  f.user_setting = variable(kCoreVariable);
  f.kexp_marker = variable(kMarkerVariable);
  f.preference = variable(kPreferenceVariable);
  f.selected = openblas_core();
  f.dynamic_arch = std::strstr(openblas_get_config(), "DYNAMIC_ARCH") != nullptr;
#if defined(__x86_64__) && defined(__GNUC__)
  // libgcc's CPU model also checks that the OS saves the AVX-512 registers (XCR0).
  __builtin_cpu_init();
  f.cpu_has_avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                     __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                     __builtin_cpu_supports("avx512vl");
#endif
  return f;
}

std::string openblas_core() { return openblas_get_corename(); }

namespace {

/// What select_blas_core found or did, for the manifest.
std::optional<BlasCoreChoice>& recorded() {
  static std::optional<BlasCoreChoice> choice;
  return choice;
}

}  // namespace

BlasCoreChoice blas_core_choice() {
  if (recorded()) return *recorded();
  BlasCoreChoice c = choose_blas_core(blas_core_facts());
  if (c.restart) {
    // This program does not choose (it never called select_blas_core): what runs is
    // OpenBLAS's choice.
    c.by = BlasCoreChoice::By::OpenBlas;
    c.core = openblas_core();
    c.restart = false;
    c.why = "OpenBLAS's own choice (this program does not change it)";
  }
  return c;
}

void select_blas_core(char** argv) {
  BlasCoreChoice choice = choose_blas_core(blas_core_facts());
  if (!choice.restart) {
    recorded() = choice;
    if (choice.by == BlasCoreChoice::By::Kexp) {
      // Read by OpenBLAS already: not handed on to the programs this one starts.
      unsetenv(kCoreVariable);
      unsetenv(kMarkerVariable);
    }
    return;
  }
  // The marker tells the new process that kexp, not the user, set the variable.
  if (setenv(kCoreVariable, choice.core.c_str(), 1) != 0 ||
      setenv(kMarkerVariable, choice.core.c_str(), 1) != 0) {
    return;
  }
  execv("/proc/self/exe", argv);
  // Still here: the execution failed. Go on with OpenBLAS's choice, saying why.
  const int error = errno;
  unsetenv(kCoreVariable);
  unsetenv(kMarkerVariable);
  fmt::print(stderr, "kexp: warning: could not restart with {}={} ({}); running with {}\n",
             kCoreVariable, choice.core, std::strerror(error), openblas_get_corename());
  choice.by = BlasCoreChoice::By::OpenBlas;
  choice.restart = false;
  choice.why = fmt::format("OpenBLAS's own choice: kexp could not restart with {}={} ({})",
                           kCoreVariable, choice.core, std::strerror(error));
  choice.core = openblas_core();
  recorded() = choice;
}

}  // namespace kexp::core
