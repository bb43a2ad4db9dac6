// What a run ended with: its counts, why it stopped early if it did, and the words that
// say so in summary.md, on stdout and in the manifest.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "exec/cell_result.hpp"
#include "reporting/manifest.hpp"

namespace kexp::core {

struct Outcome {
  long done = 0;                ///< ran, status ok
  long failed = 0;              ///< ran and threw, or refused
  long refused = 0;             ///< of the failed: over the memory budget
  long timed_out = 0;           ///< of the failed: killed at their time limit
  long skipped = 0;             ///< finished in the folder resumed
  std::size_t not_started = 0;  ///< planned for this run and not run
  bool fail_fast_stop = false;  ///< stopped at the first failure
  std::string stop_reason;      ///< a signal or a write error; empty when none
  std::string abandoned;        ///< the run abandoned at a signal

  /// Counts a run that ended with `status`. Returns what befell it ("failed", "refused",
  /// "timed out") for a run that did not end ok, nullptr for one that did.
  const char* tally(CellResult::Status status);
  [[nodiscard]] Manifest::Runs runs() const;
  [[nodiscard]] std::optional<Manifest::Stop> stop() const;
  /// "12 runs: 10 ok, 1 failed, 1 refused; results in DIR" ("6 runs: all ok; results in
  /// DIR" when every run was ok), for stdout.
  [[nodiscard]] std::string counts(const std::string& folder) const;
  /// The paragraphs of summary.md about how the run went: its shard (`shard_text`, of
  /// `cells`), a stop, combinations left out, warnings about the plan, runs kept from
  /// before.
  [[nodiscard]] std::vector<std::string> notes(const std::string& shard_text, std::size_t cells,
                                               const std::vector<std::string>& left_out,
                                               const std::vector<std::string>& warnings,
                                               const std::string& folder) const;
};

}  // namespace kexp::core
