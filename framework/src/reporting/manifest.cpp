// manifest.json: the build, the environment (host, CPU, memory, OpenBLAS and its core
// type and threads) and each plugin (with the sha256 of its library) gathered into JSON;
// the manifest of a run and of a merge written atomically; the fields merge and resume
// need read back from a stored one.
#include "reporting/manifest.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <memory>
#include <thread>

#include "config/schema.hpp"
#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/version.hpp"
#include "util/blas_core.hpp"
#include "util/files.hpp"
#include "util/measure.hpp"

// OpenBLAS's own introspection (kexp links OpenBLAS directly: cmake/KexpArmadillo.cmake).
extern "C" {
char* openblas_get_config(void);
int openblas_get_num_threads(void);
}

namespace kexp::core {

namespace fs = std::filesystem;

nlohmann::ordered_json build_json() {
  const BuildInfo b = build_info();
  nlohmann::ordered_json j;
  j["kexp_version"] = KEXP_VERSION_STRING;
  j["git_commit"] =
      b.git_commit.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(b.git_commit);
  j["git_dirty"] = b.git_dirty;
  j["compiler"] = b.compiler;
  j["build_type"] = b.build_type;
  j["flags"] = b.flags;
  return j;
}

nlohmann::ordered_json environment_json() {
  nlohmann::ordered_json j;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  j["host"] = host;
  utsname u{};
  if (uname(&u) == 0) j["os"] = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  j["cpu"] = cpu_model();
  j["cpu_count"] = std::thread::hardware_concurrency();
  j["physical_memory_bytes"] = physical_memory_bytes();
  nlohmann::ordered_json blas;
  blas["library"] = "OpenBLAS";
  blas["config"] = openblas_get_config();
  blas["core"] = openblas_core();
  const BlasCoreChoice core = blas_core_choice();
  blas["core_chosen_by"] = to_string(core.by);
  blas["core_reason"] = core.why;
  blas["threads"] = openblas_get_num_threads();
  blas["threading"] = openblas_threading();
  j["blas"] = blas;
  j["gram_threads"] = thread_count();
  // The machine's limits, as `kexp machine` measured and kept them; null before it has.
  const std::optional<MachineLimits> machine = cached_machine(machine_file());
  j["machine"] = machine ? to_json(*machine) : nlohmann::ordered_json(nullptr);
  return j;
}

nlohmann::ordered_json plugin_json(const PluginRecord& plugin) {
  nlohmann::ordered_json j;
  j["kind"] = to_string(plugin.kind());
  j["name"] = std::string(plugin.name());
  j["version"] = plugin.info().version;
  j["path"] = plugin.path.string();
  // Parameters whose schema asks for a log axis: the report's plots draw them so.
  nlohmann::ordered_json log_scale = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < plugin.info().param_count; ++i) {
    if (plugin.info().params[i].log_scale_hint) log_scale.push_back(plugin.info().params[i].name);
  }
  if (!log_scale.empty()) j["log_scale"] = log_scale;
  // What it is, in one line, and the default of each parameter that has one, written as a
  // value is (format_value): the report's setup leaves out what is at its default, and a
  // folder of an earlier version is matched against this one by them.
  j["summary"] = plugin.info().summary != nullptr ? plugin.info().summary : "";
  nlohmann::ordered_json defaults = nlohmann::ordered_json::object();
  for (const ParamSpec& spec : schema_of(*plugin.descriptor)) {
    if (spec.default_value == nullptr) continue;
    try {
      defaults[spec.name] = format_value(check_value(spec, {spec.default_value, {}, false}, ""));
    } catch (const Error&) {  // a bad default is refused when the plugin is used
    }
  }
  j["defaults"] = defaults;
  try {
    j["sha256"] = sha256_file(plugin.path);
  } catch (const Error& e) {
    j["sha256"] = nullptr;
    j["sha256_error"] = e.what();
  }
  return j;
}

std::vector<std::string> changed_plugins(const nlohmann::json& before, const nlohmann::json& now) {
  std::vector<std::string> out;
  if (!before.is_array() || !now.is_array()) return out;
  const auto text = [](const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string("?");
  };
  for (const auto& a : before) {
    if (!a.is_object()) continue;
    for (const auto& b : now) {
      if (!b.is_object() || text(a, "kind") != text(b, "kind") ||
          text(a, "name") != text(b, "name") || text(a, "sha256") == text(b, "sha256")) {
        continue;
      }
      const std::string va = text(a, "version"), vb = text(b, "version");
      out.push_back(fmt::format(
          "{} plugin '{}' is another build: version {}, sha256 {} ({}) there and {}version {}, "
          "sha256 {} ({}) here",
          text(a, "kind"), text(a, "name"), va, text(a, "sha256"), text(a, "path"),
          va == vb ? "the same " : "", vb, text(b, "sha256"), text(b, "path")));
    }
  }
  return out;
}

namespace {

struct DigestDeleter {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};

class Sha256 {
 public:
  Sha256() : context_(EVP_MD_CTX_new()) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
      throw Error("SHA-256 is not available from libcrypto");
    }
  }
  void update(const char* data, std::size_t size) {
    if (EVP_DigestUpdate(context_.get(), data, size) != 1) throw Error("SHA-256 update failed");
  }
  std::string hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(context_.get(), digest, &size) != 1) {
      throw Error("SHA-256 final failed");
    }
    std::string out;
    for (unsigned int i = 0; i < size; ++i) out += fmt::format("{:02x}", digest[i]);
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, DigestDeleter> context_;
};

}  // namespace

std::string sha256_hex(const std::string& bytes) {
  Sha256 h;
  h.update(bytes.data(), bytes.size());
  return h.hex();
}

std::string sha256_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot read {} to hash it", file.string()));
  Sha256 h;
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    h.update(buffer, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw Error(fmt::format("reading {} failed", file.string()));
  return h.hex();
}

namespace {

nlohmann::ordered_json null_or(const std::optional<nlohmann::ordered_json>& value) {
  return value ? *value : nlohmann::ordered_json(nullptr);
}

}  // namespace

nlohmann::ordered_json Manifest::to_json() const {
  nlohmann::ordered_json m = build_json();
  m["experiment"] = experiment;
  m["cell_ids"] = kCellIdRule;
  m["config_file"] = config_file;
  m["config_text"] = config_text;
  m["command_line"] = command_line;
  m["working_directory"] = working_directory;
  m["started"] = started;
  m["finished"] = finished ? nlohmann::ordered_json(*finished) : nlohmann::ordered_json(nullptr);
  m["environment"] = environment;
  nlohmann::ordered_json seeds;
  seeds["root"] = root_seed;
  seeds["repeats"] = repeats;
  seeds["derivation"] =
      "dataset: derive_seed(root, \"dataset:\" + variant, repeat); cell: derive_seed(root, "
      "\"cell:\" + id, repeat), in results.csv's seed column (FNV-1a and SplitMix64)";
  nlohmann::ordered_json datasets = nlohmann::ordered_json::array();
  for (const DatasetSeeds& d : dataset_seeds) {
    datasets.push_back({{"variant", d.variant}, {"seeds", d.seeds}});
  }
  seeds["datasets"] = datasets;
  m["seeds"] = seeds;
  m["plugins"] = plugins;
  m["inputs"] = inputs;
  m["cells"] = cells;
  m["shard"] = null_or(
      shard ? std::optional<nlohmann::ordered_json>(nlohmann::ordered_json{
                  {"index", shard->index}, {"count", shard->count}, {"cells", shard->cells}})
            : std::nullopt);
  m["resumed"] = null_or(
      resumed ? std::optional<nlohmann::ordered_json>(nlohmann::ordered_json{
                    {"first_started", resumed->first_started}, {"runs_kept", resumed->runs_kept}})
              : std::nullopt);
  m["options"] = {{"max_memory_bytes", max_memory_bytes},
                  {"memory_budget_source", memory_budget_source},
                  {"max_cell_seconds", max_cell_seconds},
                  {"threads", threads},
                  {"threads_source", threads_source},
                  {"fail_fast", fail_fast},
                  {"predictions", predictions}};
  const auto load = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  m["machine_load"] = {{"cpus_online", cpus_online},
                       {"load_average_1min_at_start", load(load_at_start)},
                       {"load_average_1min_at_end", load(load_at_end)}};
  if (runs) {
    m["runs"] = {{"ok", runs->ok},
                 {"failed", runs->failed},
                 {"refused", runs->refused},
                 {"timeout", runs->timed_out},
                 {"kept_from_before", runs->kept_from_before},
                 {"not_started", runs->not_started}};
  }
  if (stopped) {
    m["stopped"] = {
        {"reason", stopped->reason},
        {"abandoned", stopped->abandoned.empty() ? nlohmann::ordered_json(nullptr)
                                                 : nlohmann::ordered_json(stopped->abandoned)}};
  }
  if (!notes.empty()) m["notes"] = notes;
  return m;
}

nlohmann::ordered_json MergeManifest::to_json() const {
  nlohmann::ordered_json m = build_json();
  m["experiment"] = experiment;
  m["merged"] = merged;
  m["command_line"] = command_line;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Input& in : inputs) {
    list.push_back({{"folder", in.folder}, {"runs", in.runs}, {"manifest", in.manifest}});
  }
  m["merged_from"] = list;
  m["runs"] = {{"total", total_runs}, {"not_ok", not_ok}, {"planned", planned_runs}};
  m["problems"] = problems;
  return m;
}

StoredManifest read_manifest(const fs::path& file) {
  StoredManifest out;
  std::ifstream in(file);
  if (!in) return out;
  const auto j = nlohmann::ordered_json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return out;
  out.document = j;
  if (j.contains("started") && j["started"].is_string()) out.started = j["started"];
  if (j.contains("cells") && j["cells"].is_number_unsigned()) out.cells = j["cells"];
  if (j.contains("seeds") && j["seeds"].is_object() && j["seeds"].contains("repeats") &&
      j["seeds"]["repeats"].is_number_integer()) {
    out.repeats = j["seeds"]["repeats"].get<int>();
  }
  if (j.contains("shard") && j["shard"].is_object()) {
    const auto& s = j["shard"];
    Manifest::Shard shard;
    shard.index = s.value("index", std::size_t{0});
    shard.count = s.value("count", std::size_t{1});
    shard.cells = s.value("cells", std::size_t{0});
    out.shard = shard;
  }
  return out;
}

std::string cell_id_rule(const nlohmann::ordered_json& m) {
  if (!m.is_object()) return "every parameter";
  if (m.contains("cell_ids") && m["cell_ids"].is_string()) return m["cell_ids"].get<std::string>();
  if (m.contains("merged_from") && m["merged_from"].is_array() && !m["merged_from"].empty() &&
      m["merged_from"][0].is_object()) {
    return cell_id_rule(m["merged_from"][0].value("manifest", nlohmann::ordered_json()));
  }
  return "every parameter";
}

std::optional<std::string> other_cell_id_rule(const StoredManifest& manifest) {
  const nlohmann::ordered_json& m = manifest.document;
  // A folder without a readable manifest is refused or not for its other reasons.
  if (!m.is_object()) return std::nullopt;
  const std::string rule = cell_id_rule(m);
  if (rule == kCellIdRule) return std::nullopt;
  const std::string version = m.contains("kexp_version") && m["kexp_version"].is_string()
                                  ? m["kexp_version"].get<std::string>()
                                  : std::string("an earlier version");
  return fmt::format(
      "it was written by kexp {}, whose cell ids, and the seeds of the data and cells derived "
      "from them, hash {}; this kexp ({}) leaves the parameters at their default out of them, so "
      "its runs would not be recognised and new runs would draw other data",
      version, rule == "every parameter" ? "every parameter, defaults included" : rule,
      KEXP_VERSION_STRING);
}

void write_manifest(const fs::path& file, const nlohmann::ordered_json& manifest) {
  write_file_atomically(file, manifest.dump(2) + "\n");
}

std::optional<RecordedMachine> recorded_machine(const StoredManifest& manifest) {
  const nlohmann::ordered_json& doc = manifest.document;
  if (!doc.is_object() || !doc.contains("environment")) return std::nullopt;
  const nlohmann::ordered_json& env = doc["environment"];
  if (!env.is_object() || !env.contains("machine") || !env["machine"].is_object()) {
    return std::nullopt;
  }
  try {
    RecordedMachine m{machine_from_json(env["machine"]), 1};
    if (env.contains("gram_threads") && env["gram_threads"].is_number_integer()) {
      m.threads = env["gram_threads"].get<int>();
    }
    return m;
  } catch (const Error&) {
    return std::nullopt;  // a damaged entry: the summary leaves the table out
  }
}

}  // namespace kexp::core
