// The files an experiment's parameters name, hashed for the manifest, and the comparison
// that --resume and merge make of them.
#include "reporting/input_files.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "reporting/manifest.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

std::vector<InputFile> input_files(const Experiment& e) {
  std::vector<InputFile> out;
  std::set<std::string> seen;
  const auto scan = [&](const ComponentSpec& spec) {
    for (const ParamSetting& p : spec.params) {
      for (const SweepValue& v : p.values) {
        if (v.from_generator || v.text.empty()) continue;
        std::error_code ec;
        fs::path file = fs::path(v.text);
        if (file.is_relative()) file = e.base_dir / file;
        if (!fs::is_regular_file(file, ec)) continue;
        const std::string path = fs::absolute(file, ec).lexically_normal().string();
        if (!seen.insert(path).second) continue;
        out.push_back({p.key, v.text, path, sha256_file(path)});
      }
    }
  };
  scan(e.dataset);
  for (const ComponentSpec& k : e.kernels) scan(k);
  for (const ComponentSpec& s : e.solvers) scan(s);
  return out;
}

nlohmann::ordered_json to_json(const std::vector<InputFile>& files) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const InputFile& f : files) {
    out.push_back({{"key", f.key}, {"written", f.written}, {"path", f.path}, {"sha256", f.sha256}});
  }
  return out;
}

std::vector<InputFile> inputs_from_json(const nlohmann::json& inputs) {
  std::vector<InputFile> out;
  if (!inputs.is_array()) return out;
  for (const auto& f : inputs) {
    if (!f.is_object() || !f.contains("path") || !f["path"].is_string()) continue;
    out.push_back({f.value("key", std::string()), f.value("written", std::string()),
                   f["path"].get<std::string>(), f.value("sha256", std::string())});
  }
  return out;
}

std::vector<std::string> changed_inputs(const std::vector<InputFile>& before,
                                        const std::vector<InputFile>& now) {
  std::map<std::pair<std::string, std::string>, const InputFile*> current;
  for (const InputFile& f : now) current[{f.key, f.written}] = &f;
  std::vector<std::string> out;
  for (const InputFile& f : before) {
    const auto it = current.find({f.key, f.written});
    if (it == current.end()) {
      out.push_back(fmt::format("{} ({}) was read then, with sha256 {}, and is missing now", f.path,
                                f.key, f.sha256));
    } else if (it->second->sha256 != f.sha256) {
      out.push_back(fmt::format("{} ({}) has changed: sha256 {} then, {} now", it->second->path,
                                f.key, f.sha256, it->second->sha256));
    }
  }
  return out;
}

}  // namespace kexp::core
