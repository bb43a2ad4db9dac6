// The result folder: creating it behind the one --force guard (a folder kexp marked, never
// through a link or '..'), locking it for the process that writes it, and reading back its
// rows, the runs that finished and the JSON lines of chosen runs; and the text of a run's
// predictions file.
#include "reporting/result_folder.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "kexp/error.hpp"
#include "reporting/columns.hpp"
#include "reporting/manifest.hpp"
#include "reporting/resolved_config.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

const char* kMarkText =
    "This folder was written by kexp. `kexp run --force` and `kexp merge --force` replace only "
    "what kexp wrote, and only in folders whose config.yaml has the sha256 below.\n";
const char* kMarkKey = "config.yaml sha256: ";

/// The sha256 a folder's mark holds, or "" when it holds none (a mark of kexp before 5.0).
std::string mark_sha256(const fs::path& mark) {
  std::ifstream in(mark);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(kMarkKey, 0) == 0) return line.substr(std::char_traits<char>::length(kMarkKey));
  }
  return {};
}

/// A temporary file of write_file_atomically (util/files.hpp): `<name>.tmp<pid>`.
bool is_temporary_of(const std::string& name, const std::set<std::string>& entries) {
  const auto at = name.rfind(".tmp");
  if (at == std::string::npos || at + 4 == name.size()) return false;
  for (std::size_t i = at + 4; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return entries.count(name.substr(0, at)) > 0;
}

/// Deletes what kexp writes in `dir`, but its lock file, which this process holds; what
/// kexp did not write is kept and named on stderr.
void empty_folder(const ResultFolder& folder, const std::string& who) {
  std::error_code ec;
  std::vector<std::string> kept;
  const std::set<std::string>& ours = ResultFolder::kexp_entries();
  for (const auto& entry : fs::directory_iterator(folder.dir(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name == folder.lock_file().filename()) continue;
    if (ours.count(name) == 0 && !is_temporary_of(name, ours)) {
      kept.push_back(name);
      continue;
    }
    fs::remove_all(entry.path(), ec);
    if (ec) {
      throw ConfigError(
          fmt::format("{}cannot remove {}: {}", who, entry.path().string(), ec.message()));
    }
  }
  if (ec) {
    throw ConfigError(
        fmt::format("{}cannot read {}: {}", who, folder.dir().string(), ec.message()));
  }
  if (!kept.empty()) {
    std::sort(kept.begin(), kept.end());
    std::string names;
    for (const std::string& k : kept) names += (names.empty() ? "" : ", ") + k;
    fmt::print(stderr, "kexp: {}--force kept what kexp did not write in {}: {}\n", who,
               folder.dir().string(), names);
  }
}

}  // namespace

const std::set<std::string>& ResultFolder::kexp_entries() {
  static const std::set<std::string> entries{
      "config.yaml", "manifest.json", "results.csv", "results.jsonl", "summary.md",
      "report.html", "plots",         "predictions", "kernels",       ".kexp-folder"};
  return entries;
}

void check_folder_path(const fs::path& dir, const std::string& what) {
  const std::string& s = dir.native();
  if (const auto c = first_control_character(s)) {
    throw ConfigError(
        fmt::format("{} '{}' holds a control character (code {}); name the folder with printable "
                    "characters",
                    what, std::string(s.c_str()), static_cast<int>(*c)));
  }
  if (!is_valid_utf8(s)) {
    throw ConfigError(
        fmt::format("{} is not valid UTF-8; name the folder with UTF-8 characters", what));
  }
}

void remove_unstarted_folder(const fs::path& dir, bool existed) {
  std::error_code ec;
  if (!existed) {
    fs::remove_all(dir, ec);
    return;
  }
  for (const auto& entry : fs::directory_iterator(dir, ec)) fs::remove_all(entry.path(), ec);
}

ResultFolder ResultFolder::create(const fs::path& dir, bool force, Creator creator,
                                  const std::string& config_text) {
  const bool run = creator == Creator::Run;
  const std::string who = run ? "" : "kexp merge: ";
  const std::string another = run ? "choose another with --out" : "choose another --out";
  check_folder_path(dir, run ? "the result folder" : "--out");
  std::error_code ec;
  // The folder itself, as named: `out/` is `out`.
  const fs::path named = dir.filename().empty() ? dir.parent_path() : dir;
  if (fs::is_symlink(named, ec)) {
    if (force) {
      throw ConfigError(fmt::format(
          "{}{} is a symbolic link: --force never deletes through a link; name the folder "
          "itself, or {}",
          who, dir.string(), another));
    }
  } else if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw ConfigError(
        fmt::format("{}cannot create the result folder {}: a file of that name exists; {}", who,
                    dir.string(), another));
  }
  ResultFolder folder(dir);
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    if (!force) {
      throw ConfigError(fmt::format(
          "{}result folder {} already exists and is not empty; {}{}, or replace it with --force",
          who, dir.string(), another,
          run ? fmt::format(", continue it with --resume {}", dir.string()) : std::string()));
    }
    for (const auto& part : named) {
      if (part == "." || part == "..") {
        throw ConfigError(fmt::format(
            "{}--force will not delete {}: the path has '{}' in it, so the folder deleted "
            "would not be the one named; name it without '.' and '..'",
            who, dir.string(), part.string()));
      }
    }
    if (!folder.is_marked()) {
      throw ConfigError(fmt::format(
          "{}{} is not empty and is not a kexp result folder (it has no {} mark, which kexp "
          "writes into every folder it makes): --force replaces only result folders; {}, or "
          "delete it yourself",
          who, dir.string(), folder.mark_file().filename().string(), another));
    }
    if (!folder.mark_binds()) {
      throw ConfigError(fmt::format(
          "{}{} holds a {} mark that was not written for it (the mark names the sha256 of "
          "its folder's config.yaml, and this folder's config.yaml is missing or another, or "
          "the mark is from a kexp before 5.0): --force replaces only folders kexp made; {}, "
          "or delete it yourself",
          who, dir.string(), folder.mark_file().filename().string(), another));
    }
    folder.lock(run ? "--force" : "kexp merge --force");
    empty_folder(folder, who);
  } else {
    fs::create_directories(dir, ec);
    if (ec || access(dir.c_str(), W_OK) != 0) {
      throw ConfigError(fmt::format("{}cannot create the result folder {}: {}; {}", who,
                                    dir.string(), ec ? ec.message() : "not writable", another));
    }
    folder.lock(run ? "kexp run" : "kexp merge");
  }
  // The mark first, so that a folder cut short here is still known as kexp's; then the
  // config; then the mark again, bound to it.
  write_file_atomically(folder.mark_file(), kMarkText);
  write_file_atomically(folder.config_file(), config_text);
  write_file_atomically(folder.mark_file(), fmt::format("{}{}{}\n", kMarkText, kMarkKey,
                                                        sha256_file(folder.config_file())));
  return folder;
}

void ResultFolder::lock(const std::string& what) {
  if (lock_) return;
  long holder = 0;
  std::optional<FileLock> lock;
  try {
    lock = FileLock::try_lock(lock_file(), holder);
  } catch (const Error& e) {
    throw ConfigError(
        fmt::format("{}: cannot lock the result folder {}: {}", what, dir_.string(), e.what()));
  }
  if (!lock) {
    throw ConfigError(fmt::format(
        "{}: the result folder {} is being written by another kexp process ({}); wait for it "
        "to end, or write to another folder",
        what, dir_.string(), holder > 0 ? fmt::format("pid {}", holder) : "pid unknown"));
  }
  lock_ = std::make_shared<FileLock>(std::move(*lock));
}

void ResultFolder::require_rewritable(const std::string& what) const {
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) {
    throw ConfigError(
        fmt::format("{}: {} is not a folder; name a result folder", what, dir_.string()));
  }
  if (!is_marked()) {
    throw ConfigError(fmt::format(
        "{}: {} is not a kexp result folder (it has no {} mark, which kexp writes into every "
        "folder it makes), and kexp rewrites only what it wrote; name a folder of a run",
        what, dir_.string(), mark_file().filename().string()));
  }
  for (const fs::path& p : {summary_file(), html_file(), plots_dir()}) {
    if (fs::is_symlink(p, ec)) {
      throw ConfigError(fmt::format(
          "{}: {} is a symbolic link, and kexp writes only inside its result folders, never "
          "through a link; remove the link",
          what, p.string()));
    }
  }
  if (!fs::is_regular_file(results_csv(), ec)) {
    throw ConfigError(
        fmt::format("{}: {} has no results.csv to rebuild its report from", what, dir_.string()));
  }
}

bool ResultFolder::is_marked() const {
  std::error_code ec;
  return fs::is_regular_file(mark_file(), ec);
}

bool ResultFolder::mark_binds() const {
  std::error_code ec;
  if (!is_marked() || !fs::is_regular_file(config_file(), ec)) return false;
  const std::string sha = mark_sha256(mark_file());
  try {
    return !sha.empty() && sha == sha256_file(config_file());
  } catch (const Error&) {
    return false;  // an unreadable config.yaml binds nothing
  }
}

fs::path ResultFolder::prediction_file(const std::string& cell, const std::string& repeat) const {
  return predictions_dir() / fmt::format("{}-{}.csv", cell, repeat);
}

YAML::Node ResultFolder::read_config() const { return read_resolved_config(config_file(), dir_); }

CsvTable ResultFolder::read_results() const {
  const fs::path file = results_csv();
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    throw ConfigError(fmt::format("{} has no results.csv", dir_.string()));
  }
  CsvTable table = read_csv(file);
  std::vector<std::vector<std::string>> complete;
  for (auto& row : table.rows) {
    if (row.size() == table.columns.size()) complete.push_back(std::move(row));
  }
  table.rows = std::move(complete);
  return table;
}

RunKey run_key(const CsvTable& table, const std::vector<std::string>& row) {
  const auto cell = table.column(column_name(Column::cell)),
             repeat = table.column(column_name(Column::repeat));
  return {cell ? row[*cell] : std::string(), repeat ? row[*repeat] : std::string()};
}

std::set<RunKey> finished_runs(const CsvTable& table) {
  std::set<RunKey> out;
  const auto status = table.column(column_name(Column::status));
  if (!status) return out;
  for (const auto& row : table.rows) {
    if (row[*status] == "ok") out.insert(run_key(table, row));
  }
  return out;
}

std::string ResultFolder::filter_jsonl(const std::map<RunKey, std::string>& keep) const {
  std::ifstream in(results_jsonl());
  std::string line, out;
  std::set<RunKey> seen;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains(column_name(Column::cell)) ||
        !j.contains(column_name(Column::repeat))) {
      continue;
    }
    const RunKey key{j[column_name(Column::cell)].get<std::string>(),
                     j[column_name(Column::repeat)].dump()};
    const auto it = keep.find(key);
    if (it == keep.end() || j.value(column_name(Column::status), std::string()) != it->second)
      continue;
    if (!seen.insert(key).second) continue;
    out += line + '\n';
  }
  return out;
}

std::string predictions_csv(const arma::vec& y_test, const Prediction& p, bool classification) {
  const bool variance = p.var_f.n_elem == p.mean.n_elem;
  std::string text = classification ? "index,y_true,y_pred,decision\n"
                     : variance     ? "index,y_true,y_pred,var_f,var_y\n"
                                    : "index,y_true,y_pred\n";
  for (arma::uword i = 0; i < p.mean.n_elem; ++i) {
    if (classification) {
      // The class, as test_accuracy counts it (a score of 0 is +1), and the score.
      text += fmt::format("{},{},{},{}\n", i, y_test[i], p.mean[i] >= 0 ? 1 : -1, p.mean[i]);
      continue;
    }
    text += fmt::format("{},{},{}", i, y_test[i], p.mean[i]);
    if (variance) {
      text += fmt::format(",{},{}", p.var_f[i],
                          p.var_y.n_elem == p.mean.n_elem ? p.var_y[i] : p.var_f[i]);
    }
    text += '\n';
  }
  return text;
}

}  // namespace kexp::core
