// --resume: the earlier folder's results.csv and results.jsonl read back, a run kept only
// where both files hold its whole, ok row and the plan still has its cell, and every other
// row dropped and named, so that its run goes again.
#include "run/resume.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

#include "kexp/error.hpp"
#include "reporting/columns.hpp"
#include "reporting/manifest.hpp"
#include "reporting/resolved_config.hpp"
#include "run/run_manifest.hpp"

namespace kexp::core {

namespace {

/// The runs whose line in results.jsonl is whole, with their status.
std::map<RunKey, std::string> jsonl_runs(const ResultFolder& folder) {
  std::map<RunKey, std::string> runs;
  std::ifstream in(folder.results_jsonl(), std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // a partial last line
    const auto j = nlohmann::json::parse(text.substr(start, end - start), nullptr, false);
    start = end + 1;
    const std::string& cell = column_name(Column::cell);
    const std::string& repeat = column_name(Column::repeat);
    if (j.is_discarded() || !j.is_object() || !j.contains(cell) || !j[cell].is_string() ||
        !j.contains(repeat)) {
      continue;
    }
    runs.emplace(RunKey{j[cell].get<std::string>(), j[repeat].dump()},
                 j.value(column_name(Column::status), std::string()));
  }
  return runs;
}

/// The last line of a file when it does not end with a line break (a write that was cut
/// off), else nothing.
std::optional<std::string> partial_last_line(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty() || text.back() == '\n') return std::nullopt;
  const auto start = text.rfind('\n');
  return text.substr(start == std::string::npos ? 0 : start + 1);
}

/// The cells of a plan by their ids.
std::map<std::string, const Cell*> cells_by_id(const Plan& plan) {
  std::map<std::string, const Cell*> out;
  for (const Cell& c : plan.cells) out.emplace(c.id, &c);
  return out;
}

/// `table` with `columns`: each of its own where it has it, and a parameter column it lacks
/// filled with the value of the row's cell in the plan (empty for a cell not in it).
CsvTable with_columns(const CsvTable& table, const std::vector<std::string>& columns,
                      const Plan& plan) {
  const auto by_id = cells_by_id(plan);
  const auto cell = table.column(column_name(Column::cell));
  CsvTable out;
  out.columns = columns;
  for (const auto& row : table.rows) {
    const auto it = cell && *cell < row.size() ? by_id.find(row[*cell]) : by_id.end();
    std::vector<std::string>& fields = out.rows.emplace_back();
    for (const std::string& c : columns) {
      if (const auto at = table.column(c); at) {
        fields.push_back(*at < row.size() ? row[*at] : std::string());
      } else {
        fields.push_back(it != by_id.end() ? param_text(plan, *it->second, c) : std::string());
      }
    }
  }
  return out;
}

/// The value of parameter `column` of `cell` as results.jsonl writes it: typed.
nlohmann::json param_json(const Plan& plan, const Cell& cell, const std::string& column) {
  const auto dot = column.find('.');
  const std::string role = column.substr(0, dot), name = column.substr(dot + 1);
  const Variant& v = role == "dataset"  ? plan.datasets[cell.dataset]
                     : role == "kernel" ? plan.kernels[cell.kernel]
                                        : plan.solvers[cell.solver];
  if (!v.params.has(name)) return nullptr;
  return std::visit([](const auto& value) { return nlohmann::json(value); }, v.params.value(name));
}

/// The lines of results.jsonl with the fields of `added` parameter columns, from the plan.
std::string with_fields(const std::string& jsonl, const std::vector<std::string>& added,
                        const Plan& plan) {
  if (added.empty()) return jsonl;
  const auto by_id = cells_by_id(plan);
  std::string out;
  std::size_t start = 0;
  while (start < jsonl.size()) {
    std::size_t end = jsonl.find('\n', start);
    if (end == std::string::npos) end = jsonl.size();
    auto row = nlohmann::ordered_json::parse(jsonl.substr(start, end - start), nullptr, false);
    start = end + 1;
    if (row.is_discarded() || !row.is_object()) continue;
    const auto it = by_id.find(row.value(column_name(Column::cell), std::string()));
    if (it != by_id.end()) {
      for (const std::string& c : added) {
        const nlohmann::json value = param_json(plan, *it->second, c);
        if (!value.is_null()) row[c] = value;
      }
    }
    out += row.dump() + '\n';
  }
  return out;
}

/// Checks that `folder` holds `experiment` with `columns` and reconciles its rows. Throws
/// ConfigError naming the difference when it holds another experiment. Runs that timed
/// out are kept like ok ones unless `retry_timeouts`.
ResumeState read_resume_state(const ResultFolder& folder, const Experiment& e, const Plan& plan,
                              const std::vector<std::string>& columns, bool retry_timeouts) {
  const std::string dir = folder.dir().string();
  if (const auto why = other_cell_id_rule(read_manifest(folder.manifest_file()))) {
    throw ConfigError(fmt::format(
        "--resume {}: {}. Run into a new folder (--out), and compare the two with `kexp diff "
        "{} NEW`, which matches their runs by their parameters",
        dir, *why, dir));
  }
  const YAML::Node there = folder.read_config();
  const YAML::Node here = YAML::Load(resolved_config(e, plan, folder.dir()));
  // A parameter at its default is no difference: a folder written before a plugin gained
  // a parameter whose default keeps what it did holds this very experiment.
  const ParamDefaults defaults = plan_defaults(plan);
  if (const auto diff = config_difference(there, here, &defaults)) {
    throw ConfigError(fmt::format(
        "--resume {}: that folder holds a different experiment: {}; resume with the config "
        "it was run with ({}), or run this one into a new folder",
        dir, *diff, folder.config_file().string()));
  }
  CsvTable table = folder.read_results();
  // Columns of parameters the plugins gained since, at their default in every cell (the
  // configs agree), are added to the rows kept, with each cell's value.
  std::vector<std::string> added;
  if (table.columns != columns) {
    std::string which;
    for (const auto& c : columns) {
      if (std::find(table.columns.begin(), table.columns.end(), c) != table.columns.end()) continue;
      if (std::find(plan.param_columns.begin(), plan.param_columns.end(), c) !=
          plan.param_columns.end()) {
        added.push_back(c);
        continue;
      }
      which = fmt::format("column '{}' is missing there", c);
      break;
    }
    std::vector<std::string> with_added = table.columns;
    for (const auto& c : added) with_added.push_back(c);
    std::sort(with_added.begin(), with_added.end());
    std::vector<std::string> expected = columns;
    std::sort(expected.begin(), expected.end());
    if (which.empty() && with_added != expected) {
      which = "its columns differ (written by another kexp version?)";
    }
    if (!which.empty()) {
      throw ConfigError(
          fmt::format("--resume {}: results.csv does not match this run: {}", dir, which));
    }
    table = with_columns(table, columns, plan);
  }
  // A cut-off last line that still has every field is not a row either.
  if (const auto last = partial_last_line(folder.results_csv())) {
    if (!table.rows.empty() && csv_split(*last) == table.rows.back()) table.rows.pop_back();
  }

  std::set<std::string> planned;
  for (const Cell& c : plan.cells) planned.insert(c.id);
  const std::map<RunKey, std::string> in_jsonl = jsonl_runs(folder);
  ResumeState state;
  state.kept.columns = table.columns;
  std::size_t not_ok = 0, not_planned = 0, one_file = 0, twice = 0, timed_out = 0;
  std::map<RunKey, std::string> keep;
  const auto status = table.column(column_name(Column::status));
  // A run killed at its time limit would most likely be killed again: kept, and counted as
  // done, unless asked for.
  const auto kept_status = [&](const std::string& s) {
    return s == "ok" || (s == "timeout" && !retry_timeouts);
  };
  for (const auto& row : table.rows) {
    const RunKey key = run_key(table, row);
    if (planned.count(key.first) == 0) {
      ++not_planned;
    } else if (!status || !kept_status(row[*status])) {
      ++not_ok;
    } else if (const auto it = in_jsonl.find(key);
               it == in_jsonl.end() || it->second != row[*status]) {
      ++one_file;
    } else if (!keep.emplace(key, row[*status]).second) {
      ++twice;
    } else {
      state.kept.rows.push_back(row);
      state.done.insert(key);
      timed_out += row[*status] == "timeout" ? 1 : 0;
    }
  }
  for (const auto& entry : in_jsonl) {
    const RunKey& key = entry.first;
    if (kept_status(entry.second) && planned.count(key.first) > 0 && keep.count(key) == 0 &&
        std::none_of(table.rows.begin(), table.rows.end(),
                     [&](const auto& row) { return run_key(table, row) == key; })) {
      ++one_file;
    }
  }
  state.kept_jsonl = with_fields(folder.filter_jsonl(keep), added, plan);
  const auto say = [&](std::size_t count, const char* what) {
    if (count > 0)
      state.dropped.push_back(fmt::format("{} {} {}", count, count == 1 ? "row" : "rows", what));
  };
  say(not_ok, retry_timeouts ? "not ok (failed, refused or timed out): they run again"
                             : "not ok (failed or refused): they run again");
  say(timed_out,
      "timed out: kept as they are; `--retry-timeouts` runs them again (with --max-cell-time "
      "to give them more time)");
  say(one_file, "whole in one of results.csv and results.jsonl only: they run again");
  say(not_planned, "of cells this experiment does not have: dropped");
  say(twice, "given twice: the first kept");
  state.first_started = read_manifest(folder.manifest_file()).started.value_or("");
  return state;
}

/// Refuses (ConfigError) to continue `folder` when a file its manifest records (run/
/// input_files.hpp) has changed or is gone: its rows came from the files as they were
/// then, and new rows on changed files would mix two data sets in one table. A folder
/// whose manifest is missing, or records no inputs or no plugins, is refused too: it
/// cannot be checked.
void require_same_inputs(const ResultFolder& folder, const std::vector<InputFile>& inputs) {
  const StoredManifest before = read_manifest(folder.manifest_file());
  if (!before.document.is_object() || !before.document.contains("inputs") ||
      !before.document.contains("plugins")) {
    throw ConfigError(fmt::format(
        "--resume {}: its manifest.json is {}, so kexp cannot tell which data files and plugin "
        "builds its rows came from, nor check them against this run's; run into a new folder "
        "(--out), or restore the folder's manifest.json",
        folder.dir().string(),
        !before.document.is_object() ? "missing or unreadable"
                                     : (!before.document.contains("inputs")
                                            ? "without its record of the input files (\"inputs\")"
                                            : "without its record of the plugins (\"plugins\")")));
  }
  const auto changed = changed_inputs(inputs_from_json(before.document["inputs"]), inputs);
  if (changed.empty()) return;
  throw ConfigError(fmt::format(
      "--resume {}: {}; its runs and the new ones would come from different files. Run into a "
      "new folder (--out), or restore the file as it was",
      folder.dir().string(), fmt::join(changed, "; ")));
}

/// Refuses (ConfigError) to continue `folder` when a plugin the manifest records has another
/// build now (`plugins`: plan_plugins_json(), its library's sha256 differing), naming it
/// and both hashes; with `accept_rebuilt`, says so on stderr and goes on.
void require_same_plugins(const ResultFolder& folder, const nlohmann::json& plugins,
                          bool accept_rebuilt) {
  const StoredManifest before = read_manifest(folder.manifest_file());
  if (!before.document.is_object() || !before.document.contains("plugins")) return;
  const auto changed = changed_plugins(before.document["plugins"], plugins);
  if (changed.empty()) return;
  if (accept_rebuilt) {
    for (const auto& c : changed) {
      fmt::print(stderr, "kexp: --resume {}: {}; continued as asked (--accept-rebuilt-plugins)\n",
                 folder.dir().string(), c);
    }
    return;
  }
  throw ConfigError(fmt::format(
      "--resume {}: {}; its rows and the new ones would come from two builds of the plugin. "
      "Run into a new folder (--out), restore the build, or, when the build computes the same "
      "as before, give --accept-rebuilt-plugins",
      folder.dir().string(), fmt::join(changed, "; ")));
}

}  // namespace

ResumeState resume_folder(ResultFolder& folder, const Experiment& experiment, const Plan& plan,
                          const std::vector<std::string>& columns,
                          const std::vector<InputFile>& inputs, bool retry_timeouts,
                          bool accept_rebuilt) {
  (void)folder.read_config();  // a result folder, before anything is written into it
  folder.lock("--resume");
  ResumeState state = read_resume_state(folder, experiment, plan, columns, retry_timeouts);
  require_same_inputs(folder, inputs);
  require_same_plugins(folder, plan_plugins_json(plan), accept_rebuilt);
  return state;
}

}  // namespace kexp::core
