// The executor of a group in a child process: the child's messages are 'S' (the next cell
// started), 'W' and a warning, and 'D' followed by the next cell's encoded result; cells
// end in order, so the
// next cell is always the first one not yet ended. The next cell's time limit runs from
// the end of the cell before it (or the child's start), so that the group's own work
// before a cell (a kernel fitted for the group) is held to it too; after the last cell,
// the process has a minute to end.
#include "exec/isolated_group.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstddef>
#include <limits>
#include <string>

#include "exec/cell_result_wire.hpp"
#include "kexp/error.hpp"
#include "util/child_process.hpp"

namespace kexp::core {

namespace {

/// The time the group's process may take to end after its last cell's result.
constexpr double kSecondsToEndAfterTheLastCell = 60;

/// The row of a cell whose process ended while it ran.
CellResult ended_cell(const GroupCell& g, const GroupKernel& kernel, const PreparedData& data,
                      const ChildEnd& end, bool started) {
  CellResult result;
  result.status = CellResult::Status::Failed;
  result.n_train = data.X_train.n_cols;
  result.n_test = data.X_test.n_cols;
  result.d = data.X_train.n_rows;
  result.error = fmt::format(
      "the process running this cell {} {} (kernel '{}', solver '{}'): plugin code ended "
      "it, or kexp's own; `kexp run --no-isolation` runs it in kexp's process, for a "
      "debugger",
      end.describe(), started ? "while it ran" : "before it started", kernel.name,
      g.solver->name());
  return result;
}

/// The row of a cell killed at its time limit.
CellResult timed_out_cell(const GroupCell& g, const GroupKernel& kernel, const PreparedData& data,
                          double seconds) {
  CellResult result = ended_cell(g, kernel, data, ChildEnd{}, true);
  result.status = CellResult::Status::Timeout;
  result.error = fmt::format(
      "killed after {:.3g} s, past its time limit of {:.3g} s ({}) (kernel '{}', solver '{}'); "
      "--max-cell-time sets the limit, and `kexp run --resume --retry-timeouts` runs it again",
      seconds, g.time_limit_seconds, g.time_limit_basis, kernel.name, g.solver->name());
  return result;
}

}  // namespace

void execute_group_isolated(const std::vector<GroupCell>& cells, const GroupKernel& kernel,
                            const PreparedData& data, const TimingSpec& timing,
                            const GroupCallbacks& callbacks) {
  std::size_t next = 0;  // the first cell that has not ended
  while (next < cells.size()) {
    const std::vector<GroupCell> rest(cells.begin() + static_cast<std::ptrdiff_t>(next),
                                      cells.end());
    bool started = false, stopped = false;
    using Clock = std::chrono::steady_clock;
    // The next cell's time runs from here (less any time kexp was stopped, Ctrl-Z).
    Clock::time_point since = Clock::now();
    double stopped_since = stopped_seconds();
    const auto elapsed = [&] {
      return std::chrono::duration<double>(Clock::now() - since).count() -
             (stopped_seconds() - stopped_since);
    };
    // The cell whose limit ran out, when one did: its result may still be in the pipe.
    std::size_t expired = cells.size();
    const auto seconds_left = [&] {
      const double limit =
          next >= cells.size() ? kSecondsToEndAfterTheLastCell : cells[next].time_limit_seconds;
      if (!(limit > 0)) return std::numeric_limits<double>::infinity();
      const double left = limit - elapsed();
      if (left <= 0) expired = next;
      return left;
    };
    const ChildEnd end = run_in_child(
        [&](const ChildChannel& channel) {
          // What the child does itself (writing K for output.kernel_matrix) it keeps; what
          // the parent records comes back through the pipe.
          GroupCallbacks in_child = callbacks;
          in_child.started = [&](const Cell&) { channel.send("S"); };
          in_child.done = [&](const Cell&, CellResult&& result) {
            channel.send("D" + encode_cell_result(result));
            return true;
          };
          in_child.warning = [&](const std::string& warning) { channel.send("W" + warning); };
          GramBuffer buffer;
          execute_group(rest, kernel, data, timing, in_child, buffer);
        },
        [&](std::string&& message) {
          const char kind = message.empty() ? '\0' : message.front();
          if (kind == 'W') {
            if (callbacks.warning) callbacks.warning(message.substr(1));
            return true;
          }
          if ((kind != 'S' && kind != 'D') || next >= cells.size()) {
            throw Error("a message from the process running the group's cells is not kexp's");
          }
          const GroupCell& g = cells[next];
          if (kind == 'S') {
            started = true;
            if (callbacks.started) callbacks.started(*g.cell);
            return true;
          }
          CellResult result = decode_cell_result(std::string_view(message).substr(1));
          ++next;
          started = false;
          since = Clock::now();
          stopped_since = stopped_seconds();
          stopped = !callbacks.done(*g.cell, std::move(result));
          return !stopped;
        },
        seconds_left);
    if (end.stray_bytes > 0 && callbacks.warning) {
      callbacks.warning(fmt::format(
          "the process running the cells of kernel '{}' wrote {} bytes to kexp's result "
          "channel that were not kexp's messages, and they were skipped: a plugin writes to "
          "file descriptors it did not open",
          kernel.name, end.stray_bytes));
    }
    if (end.how == ChildEnd::How::NotStarted) {
      throw Error("cannot run a group of cells in a process of its own: " + end.describe() +
                  "; `kexp run --no-isolation` runs them in kexp's process");
    }
    if (stopped || next >= cells.size()) return;
    // Killed at a cell's limit whose result came after all (it was in the pipe): the cell
    // after it had barely begun, and runs again in a new process.
    if (end.how == ChildEnd::How::TimedOut && expired < next) continue;
    const GroupCell& g = cells[next];
    ++next;
    CellResult ended = end.how == ChildEnd::How::TimedOut
                           ? timed_out_cell(g, kernel, data, elapsed())
                           : ended_cell(g, kernel, data, end, started);
    if (!callbacks.done(*g.cell, std::move(ended))) return;
  }
}

void execute_group(bool isolated, const std::vector<GroupCell>& cells, const GroupKernel& kernel,
                   const PreparedData& data, const TimingSpec& timing,
                   const GroupCallbacks& callbacks, GramBuffer& buffer) {
  if (isolated) {
    execute_group_isolated(cells, kernel, data, timing, callbacks);
  } else {
    execute_group(cells, kernel, data, timing, callbacks, buffer);
  }
}

}  // namespace kexp::core
