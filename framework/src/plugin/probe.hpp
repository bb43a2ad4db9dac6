// Probing a plugin library before kexp loads it: opening a library runs its static
// constructors and its entry function, code that may exit, abort, crash or never return.
// A library that is not one of kexp's own is first opened in a child process
// (util/child_process) that reads and checks its descriptor as load_plugin() does and
// reports back; only a library whose probe ended cleanly is opened in kexp itself.
#pragma once

#include <filesystem>
#include <string>

namespace kexp::core {

/// What the probe of a library found.
struct ProbeResult {
  enum class Verdict {
    Loads,       ///< opened and checked in the child: kexp may open it
    NotAPlugin,  ///< a library without kexp's entry symbol
    Broken,      ///< load_plugin() refused it (message says why)
    Misbehaved,  ///< the child crashed, exited or hung while opening it
  };
  Verdict verdict = Verdict::Loads;
  std::string message;  ///< why, for every verdict but Loads
  double seconds = 0;   ///< the probe's wall time
};

/// The seconds a probe may take before its child is killed: KEXP_PLUGIN_PROBE_SECONDS
/// when set to a positive number, else 10.
double probe_timeout_seconds();

/// Opens `file` in a child process, as load_plugin() does, and says what happened.
ProbeResult probe_plugin(const std::filesystem::path& file, double timeout_seconds);

/// Probes `file` (probe_timeout_seconds()) and returns when kexp may open it; throws
/// NotAPluginError for a library without the entry symbol, and PluginError with the
/// probe's message for one the loader refuses or that misbehaved.
void require_probe_loads(const std::filesystem::path& file);

}  // namespace kexp::core
