// The exit codes of every kexp command (docs/design.md, "Errors").
#pragma once

namespace kexp::core {

enum ExitCode : int {
  kExitOk = 0,           ///< every cell ran and is ok
  kExitCellsFailed = 1,  ///< some cells failed or were refused; the rest ran and were written
  kExitUsage = 2,        ///< usage, config, plugin or data error: nothing ran
  /// The run stopped because a result could not be written (a full disk): every row in
  /// the folder is whole, and `--resume` continues once the cause is gone.
  kExitIncomplete = 3,
  // A run stopped by a signal exits with 128 + its number (130 for SIGINT, 143 for
  // SIGTERM), its folder consistent, as shells report a process killed by one.
};

}  // namespace kexp::core
