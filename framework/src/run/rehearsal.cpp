#include "run/rehearsal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>

#include "config/kernel_expression.hpp"
#include "plugin/plugin_call_trace.hpp"
#include "util/child_process.hpp"

namespace kexp::core {

namespace {

constexpr double kDefaultCallSeconds = 60;

/// Whether the plugin of `kind` named `name` is kexp's own; true when it is not found.
bool own(const PluginRegistry& registry, PluginKind kind, const std::string& name) {
  try {
    return registry.find(kind, name).built_in;
  } catch (const std::exception&) {
    return true;
  }
}

bool own_terms(const PluginRegistry& registry, const KernelExpression& term) {
  if (term.kind == KernelExpression::Kind::Plugin) {
    return own(registry, PluginKind::Kernel, term.plugin.plugin);
  }
  for (const KernelExpression& t : term.terms) {
    if (!own_terms(registry, t)) return false;
  }
  return true;
}

/// The child's output goes nowhere: the plan is made again, and said, by kexp itself.
void silence() {
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;
  ::dup2(null, STDOUT_FILENO);
  ::dup2(null, STDERR_FILENO);
  ::close(null);
}

}  // namespace

double plan_call_timeout_seconds() {
  if (const char* env = std::getenv("KEXP_PLUGIN_CALL_SECONDS"); env != nullptr) {
    char* end = nullptr;
    const double seconds = std::strtod(env, &end);
    if (end != env && *end == '\0' && seconds > 0) return seconds;
  }
  return kDefaultCallSeconds;
}

bool uses_only_own_plugins(const Experiment& e, const PluginRegistry& registry) {
  if (!e.dataset.plugin.empty() && !own(registry, PluginKind::Dataset, e.dataset.plugin)) {
    return false;
  }
  for (const ComponentSpec& k : e.kernels) {
    if (k.expression ? !own_terms(registry, *k.expression)
                     : !own(registry, PluginKind::Kernel, k.plugin)) {
      return false;
    }
  }
  for (const ComponentSpec& s : e.solvers) {
    if (!own(registry, PluginKind::Solver, s.plugin)) return false;
  }
  return true;
}

namespace {

/// How a child that ran plugin code ended, when it did not end cleanly.
struct Misbehaviour {
  ChildEnd end;
  std::string what;  ///< the plugin calls open when it ended
  bool replied = false;
};

/// Runs `body` in a child that notes its plugin calls on a board; `reply` gets the child's
/// one message. Returns what went wrong when the child sent none and ended, or spent too
/// long in one plugin call, or could not be started.
std::optional<Misbehaviour> watched_child(const std::function<std::string()>& body,
                                          std::string& reply, double call_timeout_seconds) {
  PluginCallBoard board;
  bool replied = false;
  using Clock = std::chrono::steady_clock;
  std::uint64_t seen = board.state().changes;
  Clock::time_point since = Clock::now();
  double stopped_since = stopped_seconds();
  const ChildEnd end = run_in_child(
      [&](const ChildChannel& channel) {
        board.watch();
        channel.send(body());
      },
      [&](std::string&& message) {
        reply = std::move(message);
        replied = true;
        return true;
      },
      [&] {
        // Only the plugin's own code is held to the limit, from the last change of note.
        const PluginCallBoard::State now = board.state();
        if (now.changes != seen) {
          seen = now.changes;
          since = Clock::now();
          stopped_since = stopped_seconds();
        }
        if (!now.in_plugin_code) return std::numeric_limits<double>::infinity();
        return call_timeout_seconds - (std::chrono::duration<double>(Clock::now() - since).count() -
                                       (stopped_seconds() - stopped_since));
      });
  if (replied && end.clean()) return std::nullopt;
  return Misbehaviour{end, board.what(), replied};
}

[[noreturn]] void blame(const Misbehaviour& m, double call_timeout_seconds, const char* context) {
  const bool hung = m.end.how == ChildEnd::How::TimedOut;
  throw PluginError(fmt::format(
      "{}, and that process {} {}{}; nothing was run or written. {}", context,
      hung ? fmt::format("spent more than {:g} s in one plugin call and was killed",
                         call_timeout_seconds)
           : m.end.describe(),
      m.what.empty() ? std::string("outside any plugin call") : "while " + m.what,
      m.replied ? " (after its work: a plugin's destructor or static destructor)" : "",
      hung ? "Fix the plugin, or raise KEXP_PLUGIN_CALL_SECONDS if the call needs longer"
           : "Fix the plugin, or take it out of the experiment; `kexp run --no-isolation` "
             "makes the plan in kexp's own process, for a debugger"));
}

}  // namespace

void rehearse_plan(const std::function<void()>& plan, double call_timeout_seconds) {
  std::string reply;
  const auto wrong = watched_child(
      [&] {
        silence();
        try {
          plan();
        } catch (...) {  // an error of the plan: kexp meets it again and reports it
        }
        return std::string("F");
      },
      reply, call_timeout_seconds);
  if (!wrong) return;
  if (wrong->end.how == ChildEnd::How::NotStarted) {
    // No process to try it in (a limit on processes): the plan is made here, as before.
    std::fprintf(stderr,
                 "kexp: warning: the plan's plugin calls are not tried apart first: a process "
                 "%s\n",
                 wrong->end.describe().c_str());
    return;
  }
  blame(*wrong, call_timeout_seconds,
        "kexp tries the plan's plugin calls in a process of its own before it runs anything");
}

int run_apart(const std::function<int()>& command, double call_timeout_seconds) {
  if (!kForkWithThreadsIsSafe) return command();
  std::string reply;
  const auto wrong = watched_child(
      [&] {
        try {
          return "X" + std::to_string(command());
        } catch (const Error& e) {
          return std::string("E") + e.what();
        } catch (const std::bad_alloc&) {
          return std::string("M");
        } catch (const std::exception& e) {
          return std::string("I") + e.what();
        }
      },
      reply, call_timeout_seconds);
  if (wrong) {
    if (wrong->end.how == ChildEnd::How::NotStarted) return command();
    // Its output went to a reader that left (`kexp describe x | head -1`): as kexp itself
    // would have ended, quietly.
    if (wrong->end.how == ChildEnd::How::Signaled && wrong->end.code == SIGPIPE) {
      return 128 + SIGPIPE;
    }
    blame(*wrong, call_timeout_seconds, "kexp runs this command in a process of its own");
  }
  switch (reply.empty() ? 'X' : reply.front()) {
    case 'E':
      throw Error(reply.substr(1));
    case 'M':
      throw std::bad_alloc();
    case 'I':
      throw std::runtime_error(reply.substr(1));
    default:
      return std::stoi(reply.substr(1));
  }
}

}  // namespace kexp::core
