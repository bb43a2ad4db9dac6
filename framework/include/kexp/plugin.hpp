// The plugin ABI.
//
// A plugin is a MODULE library that exports one versioned entry symbol,
// `kexp_plugin_v1`, a Boost.DLL alias placed in the section `kexp`. The symbol leads to
// a function returning a pointer to a constant PluginDescriptor: plain data (ABI
// version, build fingerprint, kind, name, version, summary, parameter schema, flags,
// metric names) and the create/destroy functions. No code of the plugin runs when it is
// loaded: the runner reads and checks the descriptor, validates the parameters against
// the schema, and only then calls create().
//
// A plugin author writes a class deriving from kexp::Kernel, kexp::Solver or
// kexp::Dataset with a constructor taking `const kexp::Params&`, and exports it:
//
//     constexpr kexp::ParamSpec kParams[] = {
//         kexp::param::real("sigma", "1.0", "bandwidth σ").greater_than(0).log_scale(),
//     };
//     constexpr kexp::PluginInfo kInfo = {
//         "gaussian", "1.0.0", "k(x, z) = exp(−‖x − z‖² / (2σ²))", kParams,
//         kexp::flags::psd_always};
//     KEXP_PLUGIN(GaussianKernel, kInfo)
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <boost/dll/alias.hpp>

#include "kexp/dataset.hpp"
#include "kexp/kernel.hpp"
#include "kexp/params.hpp"
#include "kexp/solver.hpp"
#include "kexp/version.hpp"

namespace kexp {

/// Bumped whenever PluginDescriptor or an interface class changes incompatibly.
inline constexpr std::uint32_t kAbiVersion = 5;

/// The name of the entry symbol, and of the section it is placed in.
inline constexpr const char* kEntrySymbol = "kexp_plugin_v1";
inline constexpr const char* kEntrySection = "kexp";

enum class PluginKind : std::uint32_t { Kernel = 1, Solver = 2, Dataset = 3 };

KEXP_API const char* to_string(PluginKind kind);

/// Properties a plugin declares, so that the runner need not guess them.
namespace flags {
// kernels
inline constexpr std::uint32_t psd_always = 1U << 0;       ///< PSD for every valid parameter
inline constexpr std::uint32_t psd_conditional = 1U << 1;  ///< PSD for some parameters only
inline constexpr std::uint32_t psd_never = 1U << 2;        ///< not PSD in general
inline constexpr std::uint32_t exact_map = 1U << 3;        ///< has an exact finite feature map
inline constexpr std::uint32_t approximate_map = 1U << 4;  ///< has an approximate feature map
/// Learns from the training data (Kernel::fit): fitted per dataset variant, repeat and
/// validation split.
inline constexpr std::uint32_t fitted = 1U << 5;
/// A kernel that takes sequences over a finite alphabet (kexp/dataset.hpp's encoding)
/// instead of vectors, or a dataset that yields them. The runner pairs sequence kernels
/// with sequence datasets only. A sequence kernel also declares flags::fitted: fit() is
/// where it learns the alphabet's size (KernelFitData::alphabet_size).
inline constexpr std::uint32_t sequences = 1U << 22;
// solvers
inline constexpr std::uint32_t primal = 1U << 8;                ///< trains on Φ
inline constexpr std::uint32_t dual = 1U << 9;                  ///< trains on K
inline constexpr std::uint32_t needs_psd = 1U << 10;            ///< requires a PSD kernel
inline constexpr std::uint32_t predictive_variance = 1U << 11;  ///< predicts var_f, var_y
inline constexpr std::uint32_t iterative = 1U << 12;            ///< reports iterations
inline constexpr std::uint32_t classifier = 1U << 13;           ///< for ±1 labels
/// Reads TrainingData::gram again in predict() (a factor kept in place, as a GP does for
/// its variance): the runner keeps K alive until predict() has run.
inline constexpr std::uint32_t keeps_gram = 1U << 14;
/// Given K to overwrite (TrainingData::gram_writable), reads only its lower triangle and
/// diagonal, as a Cholesky in place does: the runner may then compute only that part
/// (TrainingData::gram_lower_only).
inline constexpr std::uint32_t lower_triangle = 1U << 15;
/// A dual solver that reaches the kernel: it gets TrainingData::kernel and ::inputs
/// (and TestData's) instead of K, and the runner never builds K for it.
inline constexpr std::uint32_t kernel_inputs = 1U << 20;
/// A dual solver that may learn the kernel's hyperparameters (Kernel::learnable): besides
/// K it gets the kernel and the points (TrainingData::kernel, ::inputs and TestData's), and
/// reports what it learned in SolverReport::learned, written as `learned.*` columns. A
/// variant with `optimize: true` gets the kernel and the points instead of K and K(X, X*),
/// which would be at the written values: the runner builds neither for it.
inline constexpr std::uint32_t learns_kernel = 1U << 21;
/// A classifier (flags::classifier) that takes more than two classes (Task::Multiclass): it
/// predicts the class labels themselves. The runner refuses multi-class data for any solver
/// without it, before anything runs.
inline constexpr std::uint32_t multiclass = 1U << 23;
// datasets
inline constexpr std::uint32_t regression = 1U << 16;
inline constexpr std::uint32_t classification = 1U << 17;
inline constexpr std::uint32_t reads_files = 1U << 18;
}  // namespace flags

/// What a plugin author writes: the descriptor without the ABI fields.
struct PluginInfo {
  const char* name;
  const char* version;
  /// One line; for a kernel or solver the formula or problem, in docs/design.md's notation.
  const char* summary;
  const ParamSpec* params;
  std::size_t param_count;
  std::uint32_t flags;
  /// Names of the metrics a solver reports in SolverReport::metrics; may be empty.
  const char* const* metrics = nullptr;
  std::size_t metric_count = 0;

  template <std::size_t N>
  constexpr PluginInfo(const char* name_, const char* version_, const char* summary_,
                       const ParamSpec (&params_)[N], std::uint32_t flags_)
      : name(name_),
        version(version_),
        summary(summary_),
        params(params_),
        param_count(N),
        flags(flags_) {}

  /// A plugin without parameters.
  constexpr PluginInfo(const char* name_, const char* version_, const char* summary_,
                       std::uint32_t flags_)
      : name(name_),
        version(version_),
        summary(summary_),
        params(nullptr),
        param_count(0),
        flags(flags_) {}

  template <std::size_t N>
  [[nodiscard]] constexpr PluginInfo with_metrics(const char* const (&names)[N]) const {
    PluginInfo p = *this;
    p.metrics = names;
    p.metric_count = N;
    return p;
  }
};

/// The constant data behind the entry symbol. Its first two fields never move, so that
/// a runner can read the ABI version and fingerprint of any plugin, old or new.
struct PluginDescriptor {
  std::uint32_t abi_version;
  const char* fingerprint;
  PluginKind kind;
  PluginInfo info;
  /// Creates the object; the returned pointer is a kexp::Kernel*, kexp::Solver* or
  /// kexp::Dataset* (by kind) converted to void*. May throw.
  void* (*create)(const Params& params);
  /// Destroys what create() returned.
  void (*destroy)(void* object) noexcept;
};

/// The signature of the function behind the entry symbol.
using PluginEntry = const PluginDescriptor*();

namespace detail {

template <class T>
constexpr PluginKind kind_of() {
  if constexpr (std::is_base_of_v<Kernel, T>) {
    return PluginKind::Kernel;
  } else if constexpr (std::is_base_of_v<Solver, T>) {
    return PluginKind::Solver;
  } else {
    static_assert(std::is_base_of_v<Dataset, T>,
                  "a kexp plugin class derives from kexp::Kernel, kexp::Solver or kexp::Dataset");
    return PluginKind::Dataset;
  }
}

template <class T>
using interface_of =
    std::conditional_t<std::is_base_of_v<Kernel, T>, Kernel,
                       std::conditional_t<std::is_base_of_v<Solver, T>, Solver, Dataset>>;

template <class T>
void* create(const Params& params) {
  return static_cast<void*>(static_cast<interface_of<T>*>(new T(params)));
}

template <class T>
void destroy(void* object) noexcept {
  delete static_cast<interface_of<T>*>(object);
}

}  // namespace detail
}  // namespace kexp

/// Exports CLASS as this library's plugin, described by INFO (a constexpr
/// kexp::PluginInfo). One per library.
#define KEXP_PLUGIN(CLASS, INFO)                                                     \
  namespace kexp_plugin_entry {                                                      \
  constexpr ::kexp::PluginDescriptor descriptor = {::kexp::kAbiVersion,              \
                                                   KEXP_BUILD_FINGERPRINT,           \
                                                   ::kexp::detail::kind_of<CLASS>(), \
                                                   INFO,                             \
                                                   &::kexp::detail::create<CLASS>,   \
                                                   &::kexp::detail::destroy<CLASS>}; \
  inline const ::kexp::PluginDescriptor* entry() { return &descriptor; }             \
  }                                                                                  \
  BOOST_DLL_ALIAS_SECTIONED(kexp_plugin_entry::entry, kexp_plugin_v1, kexp)
