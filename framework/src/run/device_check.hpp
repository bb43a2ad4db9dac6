// The check, before anything runs, of the cells that run on the GPU (`device: cuda`): a
// GPU must be there and the build must have CUDA, and each kernel such a cell uses must
// have a device form (kexp/device_form.hpp).
#pragma once

#include <memory>
#include <vector>

#include "config/experiment.hpp"
#include "kexp/kernel.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// Throws ConfigError at the solver entry's `device` setting when a `selected` cell of the
/// plan runs on the GPU (runs_on_device) and there is no GPU, or, for a dual cell, its
/// kernel (`kernels`, one per kernel variant of the plan) has no device form or a
/// malformed one; the message names the GPU's absence or the kernel, and the fix. A primal
/// cell's features are computed on the host, so its kernel needs no device form.
void check_devices(const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
                   const std::vector<std::shared_ptr<Kernel>>& kernels);

}  // namespace kexp::core
