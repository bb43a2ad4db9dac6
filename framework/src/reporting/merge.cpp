#include "reporting/merge.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "kexp/error.hpp"
#include "reporting/folder.hpp"
#include "reporting/summary.hpp"
#include "reporting/writer.hpp"
#include "run/manifest.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

nlohmann::ordered_json read_manifest(const fs::path& folder) {
  std::ifstream in(folder / "manifest.json");
  if (!in) return nullptr;
  auto j = nlohmann::ordered_json::parse(in, nullptr, false);
  return j.is_discarded() ? nlohmann::ordered_json(nullptr) : j;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int merge_results(const MergeOptions& o) {
  if (o.inputs.empty()) throw ConfigError("kexp merge: name at least one result folder");
  // Read and check everything before writing anything.
  std::vector<YAML::Node> configs;
  std::vector<CsvTable> tables;
  std::vector<nlohmann::ordered_json> manifests;
  for (const fs::path& in : o.inputs) {
    if (fs::weakly_canonical(in) == fs::weakly_canonical(o.out)) {
      throw ConfigError(
          fmt::format("kexp merge: --out {} is one of the inputs; merge into a new "
                      "folder",
                      o.out.string()));
    }
    configs.push_back(read_resolved_config(in));
    tables.push_back(read_results(in));
    manifests.push_back(read_manifest(in));
    if (const auto diff = config_difference(configs.front(), configs.back())) {
      throw ConfigError(fmt::format(
          "kexp merge: {} and {} hold different experiments: {} (\"there\" is {}, \"here\" {})",
          o.inputs.front().string(), in.string(), *diff, o.inputs.front().string(), in.string()));
    }
    if (tables.back().columns != tables.front().columns) {
      throw ConfigError(fmt::format("kexp merge: results.csv of {} and {} have different columns",
                                    o.inputs.front().string(), in.string()));
    }
  }
  // Shards: every index of 0..N−1 once.
  std::size_t shard_count = 0, planned_runs = 0;
  std::set<std::size_t> shard_indices;
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    const auto& m = manifests[i];
    if (!m.is_object()) continue;
    if (m.contains("cells") && m.contains("seeds") && m["seeds"].contains("repeats")) {
      planned_runs = m["cells"].get<std::size_t>() * m["seeds"]["repeats"].get<std::size_t>();
    }
    if (m.contains("shard") && m["shard"].is_object()) {
      shard_count = m["shard"]["count"].get<std::size_t>();
      const auto index = m["shard"]["index"].get<std::size_t>();
      if (!shard_indices.insert(index).second) {
        problems.push_back(fmt::format("shard {}/{} is given twice ({})", index, shard_count,
                                       o.inputs[i].string()));
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
  const auto status_col = merged.column("status");
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
  for (const RunKey& key : order) {
    const auto [f, r] = chosen.at(key);
    merged.rows.push_back(tables[f].rows[r]);
    const std::string status = status_col ? tables[f].rows[r][*status_col] : "ok";
    keep[f].emplace(key, status);
    if (status != "ok") ++not_ok;
  }
  if (planned_runs > 0 && merged.rows.size() < planned_runs) {
    problems.push_back(fmt::format("{} of the sweep's {} runs are missing",
                                   planned_runs - merged.rows.size(), planned_runs));
  }

  // Write.
  std::error_code ec;
  if (fs::exists(o.out, ec) && !fs::is_empty(o.out, ec)) {
    if (!o.force) {
      throw ConfigError(
          fmt::format("kexp merge: {} already exists and is not empty; choose "
                      "another --out, or replace it with --force",
                      o.out.string()));
    }
    if (!fs::exists(o.out / "config.yaml") && !fs::exists(o.out / "manifest.json")) {
      throw ConfigError(
          fmt::format("kexp merge: {} is not a kexp result folder: --force "
                      "replaces only result folders",
                      o.out.string()));
    }
    fs::remove_all(o.out, ec);
  }
  fs::create_directories(o.out, ec);
  if (ec || access(o.out.c_str(), W_OK) != 0) {
    throw ConfigError(fmt::format("kexp merge: cannot create {}: {}", o.out.string(),
                                  ec ? ec.message() : "not writable"));
  }
  YAML::Node config = YAML::Clone(configs.front());
  config["output"]["dir"] = o.out.string();
  YAML::Emitter emitter;
  emitter << config;
  write_file_atomically(o.out / "config.yaml",
                        std::string("# Resolved by kexp (merged): every default filled in.\n") +
                            emitter.c_str() + "\n");
  write_file_atomically(o.out / "results.csv", csv_text(merged));
  std::string jsonl;
  for (std::size_t f = 0; f < o.inputs.size(); ++f) {
    jsonl += filter_jsonl(o.inputs[f] / "results.jsonl", keep[f]);
  }
  write_file_atomically(o.out / "results.jsonl", jsonl);
  for (std::size_t f = 0; f < o.inputs.size(); ++f) {
    const fs::path dir = o.inputs[f] / "predictions";
    if (!fs::is_directory(dir, ec)) continue;
    fs::create_directories(o.out / "predictions");
    for (const auto& [key, status] : keep[f]) {
      const fs::path file = dir / fmt::format("{}-{}.csv", key.first, key.second);
      if (fs::exists(file, ec)) {
        write_file_atomically(o.out / "predictions" / file.filename(), read_text(file));
      }
    }
  }
  nlohmann::ordered_json m = build_json();
  m["experiment"] = configs.front()["experiment"].as<std::string>();
  m["merged"] = now_iso8601();
  m["command_line"] = o.command_line;
  nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
  for (std::size_t f = 0; f < o.inputs.size(); ++f) {
    inputs.push_back({{"folder", fs::absolute(o.inputs[f]).lexically_normal().string()},
                      {"runs", keep[f].size()},
                      {"manifest", manifests[f]}});
  }
  m["merged_from"] = inputs;
  m["runs"] = {{"total", merged.rows.size()}, {"not_ok", not_ok}, {"planned", planned_runs}};
  m["problems"] = problems;
  write_file_atomically(o.out / "manifest.json", m.dump(2) + "\n");

  std::vector<std::string> notes = {
      fmt::format("Merged from {} folders: {}.", o.inputs.size(), [&] {
        std::string s;
        for (const auto& in : o.inputs) s += (s.empty() ? "" : ", ") + in.string();
        return s;
      }())};
  for (const auto& p : problems) notes.push_back("Incomplete: " + p + ".");
  write_report(o.out, notes);
  for (const auto& p : problems) std::cerr << "kexp merge: " << p << '\n';
  fmt::print("merged {} runs ({} not ok) from {} folders into {}\n", merged.rows.size(), not_ok,
             o.inputs.size(), o.out.string());
  return not_ok > 0 || !problems.empty() ? 1 : 0;
}

}  // namespace kexp::core
