// Choosing the OpenBLAS kernels from the CPU's feature bits: what the CPU, the OS and the
// installed OpenBLAS support, the widest such kernels against those OpenBLAS picked, and
// the program executed again once with OPENBLAS_CORETYPE set when they are wider; the
// choice kept to report.
#include "util/blas_core.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <strings.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>

extern "C" {
char* openblas_get_config(void);
char* openblas_get_corename(void);
int openblas_get_parallel(void);
int openblas_get_num_threads(void);
void openblas_set_num_threads(int n);
}

namespace kexp::core {

namespace {

constexpr const char* kCoreVariable = "OPENBLAS_CORETYPE";
constexpr const char* kPreferenceVariable = "KEXP_OPENBLAS_CORETYPE";
constexpr const char* kMarkerVariable = "KEXP_OPENBLAS_CORETYPE_SET";
constexpr const char* kReplacedVariable = "KEXP_OPENBLAS_CORETYPE_WAS";

/// The kernels kexp may choose, widest first, with what each needs of the CPU and the
/// name of its table in a DYNAMIC_ARCH OpenBLAS.
struct Kernels {
  const char* core;
  const char* table;
  bool (*runs_on)(const CpuFeatures&);
  const char* needs;
};
constexpr Kernels kKernels[] = {
    {"Cooperlake", "gotoblas_COOPERLAKE",
     [](const CpuFeatures& c) { return c.avx512 && c.avx512_bf16; },
     "AVX-512 F, CD, BW, DQ, VL and BF16"},
    {"SkylakeX", "gotoblas_SKYLAKEX", [](const CpuFeatures& c) { return c.avx512; },
     "AVX-512 F, CD, BW, DQ and VL"},
    {"Haswell", "gotoblas_HASWELL", [](const CpuFeatures& c) { return c.avx2_fma; },
     "AVX2 and FMA"},
    {"Sandybridge", "gotoblas_SANDYBRIDGE", [](const CpuFeatures& c) { return c.avx; }, "AVX"},
    {"Prescott", "gotoblas_PRESCOTT", [](const CpuFeatures& c) { return c.sse3; }, "SSE3"},
};

std::string variable(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && strncasecmp(a.c_str(), b.c_str(), a.size()) == 0;
}

bool is_one_of(const std::string& core, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return same_name(core, n); });
}

const Kernels* kernels_named(const std::string& core) {
  for (const Kernels& k : kKernels) {
    if (same_name(core, k.core)) return &k;
  }
  return nullptr;
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

std::vector<std::string> kernels_kexp_chooses() {
  std::vector<std::string> names;
  for (const Kernels& k : kKernels) names.emplace_back(k.core);
  return names;
}

std::string widest_kernels(const CpuFeatures& cpu, const std::vector<std::string>& offered) {
  for (const Kernels& k : kKernels) {
    const bool has = std::any_of(offered.begin(), offered.end(),
                                 [&](const std::string& o) { return same_name(o, k.core); });
    if (has && k.runs_on(cpu)) return k.core;
  }
  return {};
}

int vector_tier(const std::string& core) {
  if (is_one_of(core, {"SkylakeX", "Cooperlake", "SapphireRapids"})) return 3;
  if (is_one_of(core, {"Haswell", "Zen", "Excavator"})) return 2;
  if (is_one_of(core, {"Sandybridge", "Bulldozer", "Piledriver", "Steamroller"})) return 1;
  return 0;
}

BlasCoreChoice choose_blas_core(const BlasCoreFacts& facts) {
  BlasCoreChoice c;
  c.core = facts.selected;
  if (!facts.user_setting.empty()) {
    if (!facts.kexp_marker.empty() && same_name(facts.kexp_marker, facts.user_setting)) {
      c.by = BlasCoreChoice::By::Kexp;
      const Kernels* k = kernels_named(facts.user_setting);
      c.why = fmt::format(
          "OpenBLAS selected its {} kernels, narrower than the CPU's {}; kexp set {}={} (turn "
          "this off with {}=keep)",
          facts.replaced.empty() ? std::string("older") : facts.replaced,
          k != nullptr ? k->needs : "instructions", kCoreVariable, facts.user_setting,
          kPreferenceVariable);
    } else {
      c.by = BlasCoreChoice::By::User;
      c.why = fmt::format("{}={} was set in the environment", kCoreVariable, facts.user_setting);
      // Kept, but not silently: the user may not know the CPU could do more.
      const std::string widest = widest_kernels(facts.cpu, facts.offered);
      if (!widest.empty() && vector_tier(facts.user_setting) < vector_tier(widest)) {
        c.why += fmt::format(
            "; this CPU and OpenBLAS could run the wider {} kernels ({}): unset {} to let "
            "kexp choose them",
            widest, kernels_named(widest)->needs, kCoreVariable);
      }
    }
    return c;
  }
  if (same_name(facts.preference, "keep")) {
    c.why = fmt::format("OpenBLAS's own choice, kept by {}=keep", kPreferenceVariable);
    return c;
  }
  if (!facts.dynamic_arch) {
    c.why = "OpenBLAS's own choice: this OpenBLAS is built for one CPU (no DYNAMIC_ARCH)";
    return c;
  }
  const std::string widest = widest_kernels(facts.cpu, facts.offered);
  if (!widest.empty() && vector_tier(facts.selected) < vector_tier(widest)) {
    c.by = BlasCoreChoice::By::Kexp;
    c.core = widest;
    c.restart = true;
    c.why = fmt::format("OpenBLAS selected {}, narrower than the CPU's {}", facts.selected,
                        kernels_named(widest)->needs);
    return c;
  }
  c.why = "OpenBLAS's own choice, as wide as the CPU's";
  return c;
}

BlasCoreFacts blas_core_facts() {
  BlasCoreFacts f;
  f.user_setting = variable(kCoreVariable);
  f.kexp_marker = variable(kMarkerVariable);
  f.replaced = variable(kReplacedVariable);
  f.preference = variable(kPreferenceVariable);
  f.selected = openblas_core();
  f.dynamic_arch = std::strstr(openblas_get_config(), "DYNAMIC_ARCH") != nullptr;
#if defined(__x86_64__) && defined(__GNUC__)
  // libgcc's CPU model also checks that the OS saves the AVX and AVX-512 registers (XCR0).
  __builtin_cpu_init();
  f.cpu.sse3 = __builtin_cpu_supports("sse3");
  f.cpu.avx = __builtin_cpu_supports("avx");
  f.cpu.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  f.cpu.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                 __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                 __builtin_cpu_supports("avx512vl");
  f.cpu.avx512_bf16 = __builtin_cpu_supports("avx512bf16");
#endif
  // A DYNAMIC_ARCH OpenBLAS holds one table of kernels for each core type it offers.
  for (const Kernels& k : kKernels) {
    if (dlsym(RTLD_DEFAULT, k.table) != nullptr) f.offered.emplace_back(k.core);
  }
  return f;
}

std::string openblas_core() { return openblas_get_corename(); }

std::string openblas_threading() {
  switch (openblas_get_parallel()) {
    case 0:
      return "none";
    case 2:
      return "openmp";
    default:
      return "pthreads";
  }
}

void adopt_blas_threads() {
  // the OpenMP build's openblas_set_num_threads sets the calling thread's OpenMP count too
  if (openblas_threading() == "openmp") openblas_set_num_threads(openblas_get_num_threads());
}

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
      unsetenv(kReplacedVariable);
    }
    return;
  }
  // The marker tells the new process that kexp, not the user, set the variable.
  if (setenv(kCoreVariable, choice.core.c_str(), 1) != 0 ||
      setenv(kMarkerVariable, choice.core.c_str(), 1) != 0 ||
      setenv(kReplacedVariable, openblas_core().c_str(), 1) != 0) {
    return;
  }
  execv("/proc/self/exe", argv);
  // Still here: the execution failed. Go on with OpenBLAS's choice, saying why.
  const int error = errno;
  unsetenv(kCoreVariable);
  unsetenv(kMarkerVariable);
  unsetenv(kReplacedVariable);
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
