// The words of a run's end: its counts for the manifest and stdout, why it stopped if it
// did (a signal, --fail-fast, an error writing results), and the notes summary.md opens
// with.
#include "run/outcome.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

namespace kexp::core {

const char* Outcome::tally(CellResult::Status status) {
  if (status == CellResult::Status::Ok) {
    ++done;
    return nullptr;
  }
  ++failed;
  if (status == CellResult::Status::Refused) {
    ++refused;
    return "refused";
  }
  if (status == CellResult::Status::Timeout) {
    ++timed_out;
    return "timed out";
  }
  return "failed";
}

Manifest::Runs Outcome::runs() const {
  return Manifest::Runs{done,       failed - refused - timed_out, refused, timed_out, skipped,
                        not_started};
}

std::optional<Manifest::Stop> Outcome::stop() const {
  if (stop_reason.empty()) return std::nullopt;
  return Manifest::Stop{stop_reason, abandoned};
}

std::string Outcome::counts(const std::string& folder) const {
  // "all ok" when nothing failed, was refused or left; the counts otherwise.
  const bool all_ok = failed == 0 && skipped == 0 && not_started == 0 && done > 0;
  std::string text = all_ok ? std::string(done == 1 ? "ok" : "all ok")
                            : fmt::format("{} ok, {} failed", done, failed - refused - timed_out);
  if (refused > 0) text += fmt::format(", {} refused", refused);
  if (timed_out > 0) text += fmt::format(", {} timed out", timed_out);
  if (skipped > 0) text += fmt::format(", {} kept from before", skipped);
  if (not_started > 0) text += fmt::format(", {} not started", not_started);
  return fmt::format("{}: {}; results in {}{}", count_of(done + failed, "run"), text, folder,
                     stop_reason.empty() ? "" : " (stopped: " + stop_reason + ")");
}

std::vector<std::string> Outcome::notes(const std::string& shard_text, std::size_t cells,
                                        const std::vector<std::string>& left_out,
                                        const std::vector<std::string>& warnings,
                                        const std::string& folder) const {
  std::vector<std::string> notes;
  if (!shard_text.empty()) {
    notes.push_back(
        fmt::format("Shard {} of a sweep of {} cells: `kexp merge` joins the shards' folders.",
                    shard_text, cells));
  }
  if (!stop_reason.empty()) {
    notes.push_back(
        fmt::format("Stopped ({}){}: {} did not start; `kexp run --resume {}` continues.",
                    stop_reason, abandoned.empty() ? "" : ", abandoning " + abandoned,
                    count_of(not_started, "run"), folder));
  } else if (fail_fast_stop && not_started > 0) {
    notes.push_back(fmt::format("Stopped at the first failure (--fail-fast): {} did not start.",
                                count_of(not_started, "run")));
  }
  for (const auto& l : left_out) notes.push_back("Left out: " + l + ".");
  for (const auto& w : warnings) notes.push_back("Warning: " + w + ".");
  if (skipped > 0) {
    notes.push_back(fmt::format("Resumed: {} runs had finished before and were kept.", skipped));
  }
  return notes;
}

}  // namespace kexp::core
