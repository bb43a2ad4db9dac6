// The executor of a group in a child process: the child's messages are 'S' (the next cell
// started) and 'D' followed by the next cell's encoded result; cells end in order, so the
// next cell is always the first one not yet ended.
#include "exec/isolated_group.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <string>

#include "exec/cell_result_wire.hpp"
#include "kexp/error.hpp"
#include "util/child_process.hpp"

namespace kexp::core {

namespace {

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

}  // namespace

void execute_group_isolated(const std::vector<GroupCell>& cells, const GroupKernel& kernel,
                            const PreparedData& data, const TimingSpec& timing,
                            const GroupCallbacks& callbacks) {
  std::size_t next = 0;  // the first cell that has not ended
  while (next < cells.size()) {
    const std::vector<GroupCell> rest(cells.begin() + static_cast<std::ptrdiff_t>(next),
                                      cells.end());
    bool started = false, stopped = false;
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
          GramBuffer buffer;
          execute_group(rest, kernel, data, timing, in_child, buffer);
        },
        [&](std::string&& message) {
          const GroupCell& g = cells[next];
          if (message.front() == 'S') {
            started = true;
            if (callbacks.started) callbacks.started(*g.cell);
            return true;
          }
          CellResult result = decode_cell_result(std::string_view(message).substr(1));
          ++next;
          started = false;
          stopped = !callbacks.done(*g.cell, std::move(result));
          return !stopped;
        },
        0);
    if (end.how == ChildEnd::How::NotStarted) {
      throw Error("cannot run a group of cells in a process of its own: " + end.describe() +
                  "; `kexp run --no-isolation` runs them in kexp's process");
    }
    if (stopped || next >= cells.size()) return;
    const GroupCell& g = cells[next];
    ++next;
    if (!callbacks.done(*g.cell, ended_cell(g, kernel, data, end, started))) return;
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
