// The check, before anything runs, of the cells whose solver runs its device code path
// (an ExecutionTarget's device other than cpu): on cuda a GPU must be there and the build
// must have CUDA; a dual cell's kernel must have a device form (kexp/device_form.hpp); the
// solver must offer the device. A cell that cannot run on its target is refused alone.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "kexp/kernel.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// For each cell of the plan, why it cannot run on its solver's target, or nothing: a cell
/// on cpu, or not `selected`, always runs. A cell on cuda is refused when there is no GPU;
/// a dual cell on cuda or host when its kernel (`kernels`, one per kernel variant of the
/// plan) has no formula nor device form, or a malformed one; a cell on a device its solver
/// does not offer (its `device` choices) always. Each reason names the solver entry's
/// `device` setting, the GPU's absence or the kernel, and the fix. A primal cell's features
/// are computed on the host, so its kernel needs no device form.
///
/// Throws ConfigError at the first refused cell's `device` setting, with its reason, when
/// every selected cell would be refused: a run that can do nothing says so before it starts.
std::vector<std::optional<std::string>> check_devices(
    const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
    const std::vector<std::shared_ptr<Kernel>>& kernels);

}  // namespace kexp::core
