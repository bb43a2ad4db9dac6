// The kernel of a group as the executor receives it: a kernel that learns nothing, used
// as it is, or the means to make a kernel that learns, fitted once on the group's
// training part and once on the fit part of each validation split.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>

#include "kexp/kernel.hpp"

namespace kexp::core {

/// The kernel of a group.
struct GroupKernel {
  std::string_view name;  ///< in messages: "gaussian", "sum(gaussian,linear)"
  /// A kernel that learns nothing (no flags::fitted in its plugins), used as it is.
  const Kernel* kernel = nullptr;
  /// Set instead for a kernel that learns: returns a new, unfitted kernel. The group fits
  /// one on its training part before the first cell that runs (timed as its own phase,
  /// CellResult::kernel_fit, and shared by the group's cells like K), and one on the fit
  /// part of each validation split, from which that split's K or Φ is computed: a fitted
  /// kernel never sees the points it is judged on.
  std::function<std::shared_ptr<Kernel>()> make;
  /// The seed of the group's fit; a validation split's is derived from it.
  std::uint64_t fit_seed = 0;
  /// The folder relative paths in the kernel's parameters are resolved against.
  std::filesystem::path base_dir;
};

}  // namespace kexp::core
