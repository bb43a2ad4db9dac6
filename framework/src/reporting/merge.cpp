// `kexp merge`: reads and checks every input folder before writing anything (the same
// experiment, the same columns, each shard once, its results.csv saying what its
// results.jsonl says), keeps one row per run (ok over failed, the first folder over later
// ones), writes the merged folder's config, rows (both tables from the same JSONL rows),
// predictions, kernels/ and manifest, and rebuilds its summary and plots with notes of what
// is missing.
#include "reporting/merge.hpp"
#include "util/text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "kexp/error.hpp"
#include "reporting/columns.hpp"
#include "reporting/input_files.hpp"
#include "reporting/manifest.hpp"
#include "reporting/resolved_config.hpp"
#include "reporting/result_folder.hpp"
#include "reporting/results_jsonl.hpp"
#include "reporting/summary.hpp"
#include "util/files.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

int merge_results(const MergeOptions& o) {
  if (o.inputs.empty()) throw ConfigError("kexp merge: name at least one result folder");
  // Read and check everything before writing anything.
  std::vector<YAML::Node> configs;
  std::vector<CsvTable> tables;  ///< each folder's rows, read from results.jsonl
  std::vector<std::vector<nlohmann::ordered_json>> rows;  ///< the same, as JSONL objects
  std::vector<StoredManifest> manifests;
  std::vector<ResultFolder> folders;
  for (const fs::path& in : o.inputs) {
    const ResultFolder& folder = folders.emplace_back(in);
    if (fs::weakly_canonical(in) == fs::weakly_canonical(o.out)) {
      throw ConfigError(
          fmt::format("kexp merge: --out {} is one of the inputs; merge into a new "
                      "folder",
                      o.out.string()));
    }
    configs.push_back(folder.read_config());
    // The rows once, from the typed source; results.csv must say the same.
    const CsvTable csv = folder.read_results();
    rows.push_back(read_jsonl_rows(folder.results_jsonl()));
    if (const auto mismatch = csv_jsonl_mismatch(csv, rows.back())) {
      throw ConfigError(fmt::format(
          "kexp merge: {}: {}; the two tables of a result folder must hold the same rows (was "
          "one of them edited? restore it, or run the shard again)",
          in.string(), *mismatch));
    }
    tables.push_back(csv_table_of(csv.columns, rows.back()));
    manifests.push_back(read_manifest(folder.manifest_file()));
    // Runs of one cell under two rules of cell ids would be two cells on different data.
    if (cell_id_rule(manifests.back().document) != cell_id_rule(manifests.front().document)) {
      const auto why = other_cell_id_rule(cell_id_rule(manifests.back().document) == kCellIdRule
                                              ? manifests.front()
                                              : manifests.back());
      throw ConfigError(fmt::format(
          "kexp merge: {} and {} cannot be merged: {} ({}); run that shard again with this kexp",
          o.inputs.front().string(), in.string(), why.value_or("their cell ids follow other rules"),
          cell_id_rule(manifests.back().document) == kCellIdRule ? o.inputs.front().string()
                                                                 : in.string()));
    }
    ParamDefaults defaults(manifests.front().document);
    defaults.merge(ParamDefaults(manifests.back().document));
    if (const auto diff = config_difference(configs.front(), configs.back(), &defaults)) {
      throw ConfigError(fmt::format(
          "kexp merge: {} and {} hold different experiments: {} (\"there\" is {}, \"here\" {})",
          o.inputs.front().string(), in.string(), *diff, o.inputs.front().string(), in.string()));
    }
    if (tables.back().columns != tables.front().columns) {
      const auto& a = tables.front().columns;
      const auto& b = tables.back().columns;
      std::string which = "their columns are in another order";
      for (const auto& c : a) {
        if (std::find(b.begin(), b.end(), c) == b.end()) which = "'" + c + "' is not in the second";
      }
      for (const auto& c : b) {
        if (std::find(a.begin(), a.end(), c) == a.end()) which = "'" + c + "' is not in the first";
      }
      throw ConfigError(fmt::format(
          "kexp merge: results.csv of {} and {} have different columns ({}; written by kexp {} "
          "and {}); merge shards run by one kexp",
          o.inputs.front().string(), in.string(), which,
          manifests.front().document.value("kexp_version", "?"),
          manifests.back().document.value("kexp_version", "?")));
    }
  }
  // Shards run on different data files would make one table of two data sets.
  const auto first_inputs =
      inputs_from_json(manifests.front().document.value("inputs", nlohmann::json()));
  for (std::size_t i = 1; i < manifests.size(); ++i) {
    const auto inputs = inputs_from_json(manifests[i].document.value("inputs", nlohmann::json()));
    for (const InputFile& a : first_inputs) {
      for (const InputFile& b : inputs) {
        if (a.key != b.key || a.written != b.written || a.sha256 == b.sha256) continue;
        throw ConfigError(fmt::format(
            "kexp merge: {} and {} were run on different files for {} ({}): sha256 {} ({}) and "
            "{} ({}); merge only shards run on the same data",
            o.inputs.front().string(), o.inputs[i].string(), a.key, a.written, a.sha256, a.path,
            b.sha256, b.path));
      }
    }
  }
  // Shards run with different builds of a plugin would make one table of two builds.
  for (std::size_t i = 1; i < manifests.size(); ++i) {
    const auto changed =
        changed_plugins(manifests.front().document.value("plugins", nlohmann::json()),
                        manifests[i].document.value("plugins", nlohmann::json()));
    if (changed.empty()) continue;
    if (o.accept_rebuilt_plugins) {
      for (const auto& c : changed) {
        std::cerr << fmt::format(
            "kexp merge: {} and {}: {}; merged as asked "
            "(--accept-rebuilt-plugins)\n",
            o.inputs.front().string(), o.inputs[i].string(), c);
      }
      continue;
    }
    throw ConfigError(fmt::format(
        "kexp merge: {} and {} were run with different plugin builds: {} (\"there\" is {}, "
        "\"here\" {}); merge only shards run with the same build, or give --accept-rebuilt-plugins "
        "when the builds "
        "compute the same",
        o.inputs.front().string(), o.inputs[i].string(), fmt::join(changed, "; "),
        o.inputs.front().string(), o.inputs[i].string()));
  }
  // Shards: every index of 0..N−1 once.
  std::size_t shard_count = 0, planned_runs = 0;
  std::set<std::size_t> shard_indices;
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    const StoredManifest& m = manifests[i];
    if (m.cells && m.repeats) planned_runs = *m.cells * static_cast<std::size_t>(*m.repeats);
    if (m.shard) {
      shard_count = m.shard->count;
      if (!shard_indices.insert(m.shard->index).second) {
        problems.push_back(fmt::format("shard {}/{} is given twice ({})", m.shard->index,
                                       shard_count, o.inputs[i].string()));
      }
    }
  }
  if (shard_count > 0) {
    for (std::size_t s = 0; s < shard_count; ++s) {
      if (shard_indices.count(s) == 0) {
        problems.push_back(fmt::format("shard {}/{} is missing", s, shard_count));
      }
    }
  }
  // One row per run: ok wins over failed, the first folder over later ones.
  CsvTable merged;
  merged.columns = tables.front().columns;
  const auto status_col = merged.column(column_name(Column::status));
  std::map<RunKey, std::pair<std::size_t, std::size_t>> chosen;  // run → (folder, row)
  std::vector<RunKey> order;
  for (std::size_t f = 0; f < tables.size(); ++f) {
    for (std::size_t r = 0; r < tables[f].rows.size(); ++r) {
      const auto& row = tables[f].rows[r];
      const RunKey key = run_key(tables[f], row);
      const auto it = chosen.find(key);
      if (it == chosen.end()) {
        chosen.emplace(key, std::make_pair(f, r));
        order.push_back(key);
        continue;
      }
      const auto& prev = tables[it->second.first].rows[it->second.second];
      if (status_col && prev[*status_col] != "ok" && row[*status_col] == "ok") {
        it->second = {f, r};
      }
    }
  }
  std::vector<std::map<RunKey, std::string>> keep(tables.size());
  std::size_t not_ok = 0;
  std::string jsonl;
  for (const RunKey& key : order) {
    const auto [f, r] = chosen.at(key);
    merged.rows.push_back(tables[f].rows[r]);
    jsonl += rows[f][r].dump() + '\n';
    const std::string status = status_col ? tables[f].rows[r][*status_col] : "ok";
    keep[f].emplace(key, status);
    if (status != "ok") ++not_ok;
  }
  if (planned_runs > 0 && merged.rows.size() < planned_runs) {
    problems.push_back(fmt::format("{} of the sweep's {} runs are missing",
                                   planned_runs - merged.rows.size(), planned_runs));
  }

  // Write.
  const ResultFolder out =
      ResultFolder::create(o.out, o.force, ResultFolder::Creator::Merge,
                           merged_config(configs.front(), o.inputs.front(), o.out));
  write_file_atomically(out.results_csv(), csv_text(merged));
  write_file_atomically(out.results_jsonl(), jsonl);
  std::error_code ec;
  for (std::size_t f = 0; f < folders.size(); ++f) {
    if (!fs::is_directory(folders[f].predictions_dir(), ec)) continue;
    fs::create_directories(out.predictions_dir());
    for (const auto& [key, status] : keep[f]) {
      const fs::path file = folders[f].prediction_file(key.first, key.second);
      if (fs::exists(file, ec)) {
        write_file_atomically(out.prediction_file(key.first, key.second), read_text_file(file));
      }
    }
  }
  // kernels/ (output.kernel_matrix): each file once, from the first folder that has it.
  for (const ResultFolder& in : folders) {
    for (const auto& entry : fs::directory_iterator(in.kernels_dir(), ec)) {
      const fs::path to = out.kernels_dir() / entry.path().filename();
      if (!entry.is_regular_file(ec) || fs::exists(to, ec)) continue;
      fs::create_directories(out.kernels_dir());
      write_file_atomically(to, read_text_file(entry.path()));
    }
  }
  MergeManifest m;
  m.experiment = configs.front()["experiment"].as<std::string>();
  m.merged = now_iso8601();
  m.command_line = o.command_line;
  for (std::size_t f = 0; f < folders.size(); ++f) {
    m.inputs.push_back({fs::absolute(o.inputs[f]).lexically_normal().string(), keep[f].size(),
                        manifests[f].document});
  }
  m.total_runs = merged.rows.size();
  m.not_ok = not_ok;
  m.planned_runs = planned_runs;
  m.problems = problems;
  write_manifest(out.manifest_file(), m.to_json());

  std::vector<std::string> notes = {
      fmt::format("Merged from {} folders: {}.", o.inputs.size(), [&] {
        std::string s;
        for (const auto& in : o.inputs) s += (s.empty() ? "" : ", ") + in.string();
        return s;
      }())};
  for (const auto& p : problems) notes.push_back("Incomplete: " + p + ".");
  write_report(out, notes);
  for (const auto& p : problems) std::cerr << "kexp merge: " << p << '\n';
  fmt::print("merged {} ({} not ok) from {} into {}\n", count_of(merged.rows.size(), "run"), not_ok,
             count_of(o.inputs.size(), "folder"), o.out.string());
  return not_ok > 0 || !problems.empty() ? 1 : 0;
}

}  // namespace kexp::core
