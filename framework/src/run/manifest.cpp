#include "run/manifest.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <memory>
#include <thread>

#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/version.hpp"
#include "run/measure.hpp"

// OpenBLAS's own introspection (kexp links OpenBLAS directly: cmake/KexpArmadillo.cmake).
extern "C" {
char* openblas_get_config(void);
char* openblas_get_corename(void);
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

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        const auto start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? std::string() : line.substr(start);
      }
    }
  }
  return {};
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
  blas["core"] = openblas_get_corename();
  blas["threads"] = openblas_get_num_threads();
  j["blas"] = blas;
  j["gram_threads"] = thread_count();
  return j;
}

nlohmann::ordered_json plugin_json(const PluginRecord& plugin) {
  nlohmann::ordered_json j;
  j["kind"] = to_string(plugin.kind());
  j["name"] = std::string(plugin.name());
  j["version"] = plugin.info().version;
  j["path"] = plugin.path.string();
  try {
    j["sha256"] = sha256_file(plugin.path);
  } catch (const Error& e) {
    j["sha256"] = nullptr;
    j["sha256_error"] = e.what();
  }
  return j;
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

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace kexp::core
