// A plugin library opened in a child process: the child runs load_plugin() and sends one
// message, its verdict and message; the parent turns the child's end into a verdict when
// no message came (the library's code ended or stopped the child).
#include "plugin/probe.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "plugin/registry.hpp"
#include "util/child_process.hpp"

namespace kexp::core {

namespace {

constexpr double kDefaultProbeSeconds = 10;

}  // namespace

double probe_timeout_seconds() {
  if (const char* env = std::getenv("KEXP_PLUGIN_PROBE_SECONDS"); env != nullptr) {
    char* end = nullptr;
    const double seconds = std::strtod(env, &end);
    if (end != env && *end == '\0' && seconds > 0) return seconds;
  }
  return kDefaultProbeSeconds;
}

ProbeResult probe_plugin(const std::filesystem::path& file, double timeout_seconds) {
  std::string reply;
  bool replied = false;
  const ChildEnd end = run_in_child(
      [&file](const ChildChannel& channel) {
        try {
          (void)load_plugin(file);
          channel.send("L");
        } catch (const NotAPluginError& e) {
          channel.send(std::string("N") + e.what());
        } catch (const std::exception& e) {
          channel.send(std::string("B") + e.what());
        }
      },
      [&](std::string&& message) {
        reply = std::move(message);
        replied = true;
        return true;
      },
      timeout_seconds);
  ProbeResult result;
  result.seconds = end.seconds;
  // A verdict counts only from a child that then ended cleanly: a library may also exit
  // or crash from its static destructors, which kexp would run at its own exit.
  if (replied && end.clean() && !reply.empty()) {
    const char kind = reply.front();
    result.message = reply.substr(1);
    result.verdict = kind == 'L'   ? ProbeResult::Verdict::Loads
                     : kind == 'N' ? ProbeResult::Verdict::NotAPlugin
                                   : ProbeResult::Verdict::Broken;
    return result;
  }
  result.verdict = ProbeResult::Verdict::Misbehaved;
  result.message = fmt::format(
      "plugin library {} {} while kexp opened it in a separate process to check it (its "
      "static constructors, destructors or entry function{}); it is not loaded: fix the "
      "library or take it off the plugin path",
      file.string(), end.describe(),
      end.how == ChildEnd::How::TimedOut ? " did not return; KEXP_PLUGIN_PROBE_SECONDS sets "
                                           "the time a library may take to load"
                                         : " ended the process");
  return result;
}

void require_probe_loads(const std::filesystem::path& file) {
  const ProbeResult probe = probe_plugin(file, probe_timeout_seconds());
  switch (probe.verdict) {
    case ProbeResult::Verdict::Loads:
      return;
    case ProbeResult::Verdict::NotAPlugin:
      throw NotAPluginError(probe.message);
    case ProbeResult::Verdict::Broken:
    case ProbeResult::Verdict::Misbehaved:
      throw PluginError(probe.message);
  }
}

}  // namespace kexp::core
