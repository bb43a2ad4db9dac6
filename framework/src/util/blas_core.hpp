// The OpenBLAS kernels kexp runs with.
//
// Debian's OpenBLAS is built for many CPUs at once (DYNAMIC_ARCH) and picks its kernels
// when it is loaded, from a list of CPU models it knows. OpenBLAS 0.3.21 does not know
// recent ones: on an Intel Xeon of family 6, model 207 (AVX-512) it falls back to its
// Prescott kernels (SSE3), on AMD's Zen 4 to its AVX2 ones, and DGEMM runs 2 to 4.5 times
// slower than with the kernels the CPU can execute. Its choice can be changed only by
// OPENBLAS_CORETYPE, read once while the library initialises, before main(). So kexp
// decides from the CPU's feature bits, not from a list of models: when OpenBLAS's kernels
// use narrower vectors than the widest kernels that the CPU, the operating system and the
// installed OpenBLAS support (SSE < AVX < AVX2 with FMA < AVX-512), a kexp program sets
// OPENBLAS_CORETYPE to those kernels and executes itself again, once, with the same
// arguments (select_blas_core). A user's own OPENBLAS_CORETYPE always wins, and
// KEXP_OPENBLAS_CORETYPE=keep keeps OpenBLAS's own choice.
#pragma once

#include <string>
#include <vector>

namespace kexp::core {

/// The CPU's vector instructions that OpenBLAS's kernels use, each only where the
/// operating system also saves its registers.
struct CpuFeatures {
  bool sse3 = false;
  bool avx = false;
  bool avx2_fma = false;     ///< AVX2 and FMA
  bool avx512 = false;       ///< AVX-512 F, CD, BW, DQ and VL
  bool avx512_bf16 = false;  ///< AVX-512 BF16 as well
};

/// What the choice of kernels depends on.
struct BlasCoreFacts {
  std::string user_setting;   ///< OPENBLAS_CORETYPE as found, empty when unset
  std::string kexp_marker;    ///< what a previous select_blas_core set (KEXP_OPENBLAS_CORETYPE_SET)
  std::string replaced;       ///< what OpenBLAS had selected before it (KEXP_OPENBLAS_CORETYPE_WAS)
  std::string preference;     ///< KEXP_OPENBLAS_CORETYPE: empty or "auto", or "keep"
  std::string selected;       ///< the kernels OpenBLAS selected (openblas_get_corename)
  bool dynamic_arch = false;  ///< OpenBLAS chooses its kernels at run time
  CpuFeatures cpu;
  std::vector<std::string> offered;  ///< the kernels the installed OpenBLAS has, of those
                                     ///< kexp may choose (widest_kernels)
};

/// Who chose the kernels, and why, in words.
struct BlasCoreChoice {
  enum class By { OpenBlas, User, Kexp };
  By by = By::OpenBlas;
  std::string core;  ///< for By::Kexp before the restart: the core type to set
  std::string why;
  bool restart = false;  ///< set OPENBLAS_CORETYPE = core and execute again
};

/// The kernels kexp may choose, widest first, each with the features it needs:
/// Cooperlake (AVX-512 with BF16), SkylakeX (AVX-512), Haswell (AVX2 and FMA),
/// Sandybridge (AVX), Prescott (SSE3).
std::vector<std::string> kernels_kexp_chooses();

/// The widest of `offered` that `cpu` can execute; empty when none.
std::string widest_kernels(const CpuFeatures& cpu, const std::vector<std::string>& offered);

/// The vector width a core type's kernels use: 0 SSE (and any core kexp does not know),
/// 1 AVX (Sandybridge, Bulldozer, Piledriver, Steamroller), 2 AVX2 with FMA (Haswell,
/// Zen, Excavator), 3 AVX-512 (SkylakeX, Cooperlake, SapphireRapids).
int vector_tier(const std::string& core);

/// The decision, from the facts alone.
BlasCoreChoice choose_blas_core(const BlasCoreFacts& facts);

/// The facts of this process: its environment, its OpenBLAS and its CPU.
BlasCoreFacts blas_core_facts();

/// Call first in main(): when choose_blas_core asks for a restart, sets
/// OPENBLAS_CORETYPE and the markers and executes /proc/self/exe again with argv; returns
/// only when no restart is needed or the execution failed (then with OpenBLAS's choice).
/// In the restarted process it removes the variables again once it has read them, so
/// that programs it starts get the environment the user gave.
void select_blas_core(char** argv);

/// The choice this process runs with, for the manifest: what select_blas_core found or
/// did, or, in a program that did not call it, the facts read as OpenBLAS's or the
/// user's choice.
BlasCoreChoice blas_core_choice();

/// The kernels OpenBLAS runs with in this process ("SkylakeX", "Haswell", …).
std::string openblas_core();

/// How this process's OpenBLAS runs its threads: "openmp" (libgomp's pool, the one kexp's
/// own parallel regions use), "pthreads" (a pool of its own) or "none" (one thread).
std::string openblas_threading();

/// With OpenBLAS's OpenMP build, which runs on the calling thread's OpenMP count, makes
/// that count BLAS's: a thread kexp starts begins with OpenMP's initial count (the cores,
/// or OMP_NUM_THREADS), not the one the run set for BLAS. Nothing with another build.
void adopt_blas_threads();

/// For the manifest: "kexp", "user" or "openblas".
const char* to_string(BlasCoreChoice::By by);

}  // namespace kexp::core
