// The plan's plugin calls tried first in a process of their own. Making the plan calls a
// plugin's code in kexp's process: every kernel, solver and dataset object is created, a
// kernel is asked for its feature map and its PSD verdict, a solver for its memory and
// its flops. A constructor that crashes, calls exit() or never returns would end or hang
// kexp there, with no word of which plugin did it. So when the experiment uses a plugin
// that is not kexp's own, the run first does its dry run in a child process, silently,
// with every plugin call noted on a board the parent reads (plugin/plugin_call_trace.hpp);
// only when that child ends cleanly does kexp make the plan itself. A child that crashes,
// exits or spends longer than the limit in one plugin call is an error naming the plugin,
// the call and how the process ended, before anything is written (exit 2).
#pragma once

#include <functional>
#include <string>

#include "config/experiment.hpp"
#include "plugin/registry.hpp"

namespace kexp::core {

/// The time one plugin call may take while the plan is tried (a constructor, a query), in
/// seconds: KEXP_PLUGIN_CALL_SECONDS when set to a positive number, else 60.
double plan_call_timeout_seconds();

/// Whether every plugin `experiment` names (its dataset, kernels with every term of a sum or
/// product, and solvers) is one of kexp's own, from its default plugin folder: then there
/// is nothing to try apart. A name that cannot be found counts as kexp's own here: the plan
/// reports it.
[[nodiscard]] bool uses_only_own_plugins(const Experiment& experiment,
                                         const PluginRegistry& registry);

/// Runs `plan` (the run's plugin calls up to its dry run) in a child process with its
/// output discarded. Returns when the child ended cleanly, whether or not `plan` threw (the
/// caller, making the plan itself, meets the same error and reports it). Throws PluginError
/// when the child crashed, exited or hung in a plugin call, naming the call.
void rehearse_plan(const std::function<void()>& plan, double call_timeout_seconds);

/// Runs a whole command that calls plugins (`kexp check-kernel`, `kexp describe`) in a
/// child process whose output is kexp's, and returns the exit code `command` returned. A
/// kexp::Error it throws is thrown here again with its message; a child that crashes,
/// exits or spends longer than `call_timeout_seconds` in a plugin's constructor is a
/// PluginError naming the plugin and the call. In a build where forking from a process with
/// threads is not safe, runs `command` here.
int run_apart(const std::function<int()>& command, double call_timeout_seconds);

}  // namespace kexp::core
