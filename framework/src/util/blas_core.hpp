// The OpenBLAS kernels kexp runs with.
//
// Debian's OpenBLAS is built for many CPUs at once (DYNAMIC_ARCH) and picks its kernels
// when it is loaded, from the CPUs it knows. OpenBLAS 0.3.21 does not know recent AVX-512
// CPUs such as AMD's Zen 4 and falls back to its AVX2 kernels (Haswell, Zen), which run
// DGEMM at about half the speed of its AVX-512 ones (SkylakeX) on such a CPU. Its choice
// can be changed only by OPENBLAS_CORETYPE, read once while the library initialises,
// before main(). So a kexp program that finds AVX2 kernels selected on a CPU with
// AVX-512 sets OPENBLAS_CORETYPE=SkylakeX and executes itself again, once, with the same
// arguments (select_blas_core). A user's own OPENBLAS_CORETYPE always wins, and
// KEXP_OPENBLAS_CORETYPE=keep keeps OpenBLAS's own choice.
#pragma once

#include <string>

namespace kexp::core {

/// What the choice of kernels depends on.
struct BlasCoreFacts {
  std::string user_setting;   ///< OPENBLAS_CORETYPE as found, empty when unset
  std::string kexp_marker;    ///< what a previous select_blas_core set (KEXP_OPENBLAS_CORETYPE_SET)
  std::string preference;     ///< KEXP_OPENBLAS_CORETYPE: empty or "auto", or "keep"
  std::string selected;       ///< the kernels OpenBLAS selected (openblas_get_corename)
  bool dynamic_arch = false;  ///< OpenBLAS chooses its kernels at run time
  bool cpu_has_avx512 = false;  ///< AVX-512 F, CD, BW, DQ and VL, enabled by the OS
};

/// Who chose the kernels, and why, in words.
struct BlasCoreChoice {
  enum class By { OpenBlas, User, Kexp };
  By by = By::OpenBlas;
  std::string core;  ///< for By::Kexp before the restart: the core type to set
  std::string why;
  bool restart = false;  ///< set OPENBLAS_CORETYPE = core and execute again
};

/// The decision, from the facts alone.
BlasCoreChoice choose_blas_core(const BlasCoreFacts& facts);

/// The facts of this process: its environment, its OpenBLAS and its CPU.
BlasCoreFacts blas_core_facts();

/// Call first in main(): when choose_blas_core asks for a restart, sets
/// OPENBLAS_CORETYPE and the marker and executes /proc/self/exe again with argv; returns
/// only when no restart is needed or the execution failed (then with OpenBLAS's choice).
/// In the restarted process it removes both variables again once it has read them, so
/// that programs it starts get the environment the user gave.
void select_blas_core(char** argv);

/// The choice this process runs with, for the manifest: what select_blas_core found or
/// did, or, in a program that did not call it, the facts read as OpenBLAS's or the
/// user's choice.
BlasCoreChoice blas_core_choice();

/// The kernels OpenBLAS runs with in this process ("SkylakeX", "Haswell", …).
std::string openblas_core();

/// For the manifest: "kexp", "user" or "openblas".
const char* to_string(BlasCoreChoice::By by);

}  // namespace kexp::core
