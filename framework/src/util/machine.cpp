// Measures the machine's limits (DGEMM, a vectorised exp, memory writes) on one thread
// and on all, and keeps them in a JSON file of machines, one entry per host, CPU,
// processor count and BLAS kernels.
#include "util/machine.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <armadillo>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/parallel.hpp"
#include "util/blas_core.hpp"
#include "util/files.hpp"
#include "util/measure.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The least of `repeats` timings of f, after one untimed call.
template <class F>
double best_seconds(F&& f, int repeats) {
  f();
  double best = kInf;
  for (int r = 0; r < repeats; ++r) {
    const Stopwatch watch;
    f();
    best = std::min(best, watch.seconds());
  }
  return best;
}

/// How much each measurement does: the full sizes, or a quick pass (tests).
struct Sizes {
  arma::uword dgemm_n = 2048;
  int exp_rounds = 20000;
  std::size_t write_doubles = std::size_t{32} << 20;  // 256 MiB
};

Sizes sizes(bool quick) { return quick ? Sizes{256, 200, std::size_t{1} << 19} : Sizes{}; }

double dgemm_rate(const arma::uword n) {
  const arma::mat A(n, n, arma::fill::value(0.5));
  const arma::mat B(n, n, arma::fill::value(0.25));
  arma::mat C(n, n);
  const double seconds = best_seconds([&] { C = A * B; }, 5);
  return 2.0 * std::pow(static_cast<double>(n), 3) / seconds;
}

// --- exp: glibc's vector functions, called at the width they were built for (x86-64; on
// another architecture, glibc's scalar exp).

using ExpBlock = void (*)(void* f, const double* x, double* y, std::size_t n);

#if defined(__x86_64__)
__attribute__((target("avx512f"))) void exp_block_512(void* f, const double* x, double* y,
                                                      std::size_t n) {
  const auto fn = reinterpret_cast<__m512d (*)(__m512d)>(f);
  for (std::size_t i = 0; i < n; i += 8) _mm512_storeu_pd(y + i, fn(_mm512_loadu_pd(x + i)));
}

__attribute__((target("avx2,fma"))) void exp_block_256(void* f, const double* x, double* y,
                                                       std::size_t n) {
  const auto fn = reinterpret_cast<__m256d (*)(__m256d)>(f);
  for (std::size_t i = 0; i < n; i += 4) _mm256_storeu_pd(y + i, fn(_mm256_loadu_pd(x + i)));
}

void exp_block_128(void* f, const double* x, double* y, std::size_t n) {
  const auto fn = reinterpret_cast<__m128d (*)(__m128d)>(f);
  for (std::size_t i = 0; i < n; i += 2) _mm_storeu_pd(y + i, fn(_mm_loadu_pd(x + i)));
}
#endif

void exp_block_scalar(void* /*f*/, const double* x, double* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}

struct ExpFunction {
  std::string name = "exp";
  void* f = nullptr;
  ExpBlock block = exp_block_scalar;
};

/// The widest of libmvec's exp that the CPU executes; glibc's scalar exp without it.
ExpFunction widest_exp() {
  ExpFunction e;
#if defined(__x86_64__)
  void* mvec = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
  if (mvec == nullptr) return e;
  const CpuFeatures cpu = blas_core_facts().cpu;
  const struct {
    bool runs;
    const char* name;
    ExpBlock block;
  } variants[] = {{cpu.avx512, "_ZGVeN8v_exp", exp_block_512},
                  {cpu.avx2_fma, "_ZGVdN4v_exp", exp_block_256},
                  {true, "_ZGVbN2v_exp", exp_block_128}};
  for (const auto& v : variants) {
    if (!v.runs) continue;
    if (void* f = dlsym(mvec, v.name)) return {v.name, f, v.block};
  }
#endif
  return e;
}

/// Values per second of `exp` on `threads` threads, each on its own 2048 values (in
/// L1), over the range of exponents a Gaussian Gram matrix sees.
double exp_rate(const ExpFunction& exp, int threads, int rounds) {
  constexpr std::size_t kValues = 2048;
  const auto run = [&] {
#pragma omp parallel num_threads(threads)
    {
      std::vector<double> x(kValues), y(kValues);
      for (std::size_t i = 0; i < kValues; ++i) {
        x[i] = -20.0 * static_cast<double>(i) / static_cast<double>(kValues);
      }
      for (int r = 0; r < rounds; ++r) exp.block(exp.f, x.data(), y.data(), kValues);
      if (y[1] < 0) std::abort();  // keeps the work; exp is never negative
    }
  };
  const double seconds = best_seconds(run, 5);
  return static_cast<double>(threads) * kValues * rounds / seconds;
}

/// Bytes per second that `threads` threads write with plain stores into `doubles` values.
double write_rate(int threads, std::size_t doubles) {
  std::vector<double> buffer(doubles);  // touched here, so no page faults are timed
  double* p = buffer.data();
  const volatile double seed = 0.5;
  const double value = seed;
  const auto run = [&] {
    const auto n = static_cast<long>(doubles);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long i = 0; i < n; ++i) p[i] = value;
  };
  const double seconds = best_seconds(run, 5);
  if (!(buffer[doubles / 2] == value)) std::abort();
  return static_cast<double>(doubles * sizeof(double)) / seconds;
}

MachineRates rates(const ExpFunction& exp, int threads, const Sizes& size) {
  MachineRates r;
  r.threads = threads;
  {
    std::optional<kexp::detail::SingleThreadedBlas> one;  // BLAS on one thread, for one
    if (threads == 1) one.emplace();
    r.dgemm_flops_per_second = dgemm_rate(size.dgemm_n);
  }
  r.exp_per_second = exp_rate(exp, threads, size.exp_rounds);
  r.write_bytes_per_second = write_rate(threads, size.write_doubles);
  return r;
}

std::string host_name() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

nlohmann::ordered_json rates_json(const MachineRates& r) {
  nlohmann::ordered_json j;
  j["threads"] = r.threads;
  j["dgemm_flops_per_second"] = r.dgemm_flops_per_second;
  j["exp_per_second"] = r.exp_per_second;
  j["write_bytes_per_second"] = r.write_bytes_per_second;
  return j;
}

MachineRates rates_from_json(const nlohmann::json& j) {
  MachineRates r;
  r.threads = j.at("threads").get<int>();
  r.dgemm_flops_per_second = j.at("dgemm_flops_per_second").get<double>();
  r.exp_per_second = j.at("exp_per_second").get<double>();
  r.write_bytes_per_second = j.at("write_bytes_per_second").get<double>();
  return r;
}

bool same_machine(const MachineLimits& a, const MachineLimits& b) {
  return a.host == b.host && a.cpu == b.cpu && a.cpus == b.cpus && a.blas_core == b.blas_core;
}

/// The machines kept in `file`; none when it is missing or unreadable.
std::vector<MachineLimits> read_machines(const fs::path& file) {
  std::vector<MachineLimits> out;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return out;
  try {
    const nlohmann::json j = nlohmann::json::parse(read_text_file(file));
    for (const auto& m : j.at("machines")) out.push_back(machine_from_json(m));
  } catch (const std::exception&) {
    out.clear();  // a damaged file is measured again and replaced
  }
  return out;
}

MachineLimits this_machine_key() {
  MachineLimits m;
  m.host = host_name();
  m.cpu = cpu_model();
  m.cpus = online_cpus();
  m.blas_core = openblas_core();
  return m;
}

}  // namespace

MachineRates MachineLimits::at(int threads) const {
  if (threads <= 1) return one;
  if (threads == all.threads) return all;
  MachineRates r;
  r.threads = threads;
  const double t = threads;
  r.dgemm_flops_per_second = std::min(one.dgemm_flops_per_second * t, all.dgemm_flops_per_second);
  r.exp_per_second = std::min(one.exp_per_second * t, all.exp_per_second);
  r.write_bytes_per_second = std::min(one.write_bytes_per_second * t, all.write_bytes_per_second);
  return r;
}

double measure_dgemm_rate(std::size_t n) { return dgemm_rate(static_cast<arma::uword>(n)); }

MachineLimits measure_machine(bool quick) {
  const Sizes size = sizes(quick);
  const Stopwatch watch;
  MachineLimits m = this_machine_key();
  m.measured = now_iso8601();
  m.load = load_average().value_or(-1);
  const ExpFunction exp = widest_exp();
  m.exp_function = exp.name;
  m.one = rates(exp, 1, size);
  m.all = rates(exp, std::max(1, m.cpus), size);
  m.seconds = watch.seconds();
  return m;
}

std::string busy_measurement_warning(const MachineLimits& limits) {
  if (limits.load < 0) return {};
  return busy_machine_warning(limits.load, limits.cpus, limits.cpus);
}

fs::path machine_file() {
  if (const char* file = std::getenv("KEXP_MACHINE_FILE"); file != nullptr && *file != '\0') {
    return file;
  }
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache != '\0') {
    return fs::path(cache) / "kexp" / "machine.json";
  }
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : ".") / ".cache" / "kexp" / "machine.json";
}

std::string implausible_rates(const MachineLimits& m) {
  struct Bound {
    const char* what;
    double MachineRates::*rate;
    double low, high;  // per thread
    const char* unit;
    double unit_scale;
  };
  static constexpr Bound kBounds[] = {
      {"DGEMM", &MachineRates::dgemm_flops_per_second, 1e7, 1e12, "GFLOP/s", 1e9},
      {"exp", &MachineRates::exp_per_second, 1e6, 1e11, "G values/s", 1e9},
      {"memory writes", &MachineRates::write_bytes_per_second, 1e7, 1e12, "GB/s", 1e9}};
  for (const Bound& b : kBounds) {
    for (const MachineRates* r : {&m.one, &m.all}) {
      const double threads = std::max(1, r->threads);
      const double v = r->*b.rate;
      const double low = r == &m.all ? b.low / 10 : b.low, high = b.high * threads;
      if (std::isfinite(v) && v >= low && v <= high) continue;
      return fmt::format(
          "its {} rate on {} thread{} is {:.4g} {}, outside what a machine can do ({:.3g} to "
          "{:.3g} {})",
          b.what, r->threads, r->threads == 1 ? "" : "s", v / b.unit_scale, b.unit,
          low / b.unit_scale, high / b.unit_scale, b.unit);
    }
  }
  return {};
}

std::optional<MachineLimits> cached_machine(const fs::path& file) {
  const MachineLimits key = this_machine_key();
  for (MachineLimits& m : read_machines(file)) {
    if (!same_machine(m, key)) continue;
    if (const std::string wrong = implausible_rates(m); !wrong.empty()) {
      static bool warned = false;
      if (!warned) {
        warned = true;
        std::fprintf(stderr,
                     "kexp: warning: the limits kept for this machine in %s are not used: %s; "
                     "kexp measures what it needs again, and `kexp machine --measure` "
                     "replaces them\n",
                     file.string().c_str(), wrong.c_str());
      }
      return std::nullopt;
    }
    return std::move(m);
  }
  return std::nullopt;
}

void cache_machine(const fs::path& file, const MachineLimits& limits) {
  std::error_code status_error;
  const fs::file_status status = fs::status(file, status_error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    throw Error(fmt::format(
        "cannot keep this machine's limits in {}: it is {}, not a regular file, and kexp "
        "writes only a regular file of its own there; set KEXP_MACHINE_FILE to a file's path",
        file.string(),
        fs::is_directory(status)                                     ? "a folder"
        : fs::is_fifo(status)                                        ? "a FIFO"
        : fs::is_character_file(status) || fs::is_block_file(status) ? "a device"
        : fs::is_socket(status)                                      ? "a socket"
                                                                     : "something else"));
  }
  nlohmann::ordered_json machines = nlohmann::ordered_json::array();
  for (const MachineLimits& m : read_machines(file)) {
    if (!same_machine(m, limits)) machines.push_back(to_json(m));
  }
  machines.push_back(to_json(limits));
  nlohmann::ordered_json j;
  j["machines"] = machines;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  write_file_atomically(file, j.dump(2) + "\n");
}

nlohmann::ordered_json to_json(const MachineLimits& m) {
  nlohmann::ordered_json j;
  j["host"] = m.host;
  j["cpu"] = m.cpu;
  j["cpus"] = m.cpus;
  j["blas_core"] = m.blas_core;
  j["exp_function"] = m.exp_function;
  j["measured"] = m.measured;
  j["measure_seconds"] = m.seconds;
  j["load_at_start"] = m.load;
  j["one_thread"] = rates_json(m.one);
  j["all_threads"] = rates_json(m.all);
  return j;
}

MachineLimits machine_from_json(const nlohmann::json& j) {
  try {
    MachineLimits m;
    m.host = j.at("host").get<std::string>();
    m.cpu = j.at("cpu").get<std::string>();
    m.cpus = j.at("cpus").get<int>();
    m.blas_core = j.at("blas_core").get<std::string>();
    m.exp_function = j.at("exp_function").get<std::string>();
    m.measured = j.at("measured").get<std::string>();
    m.seconds = j.at("measure_seconds").get<double>();
    m.load = j.value("load_at_start", -1.0);
    m.one = rates_from_json(j.at("one_thread"));
    m.all = rates_from_json(j.at("all_threads"));
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("machine limits: ") + e.what());
  }
}

double gram_entry_bound(const MachineRates& r, double d) {
  if (r.dgemm_flops_per_second <= 0 || r.exp_per_second <= 0 || r.write_bytes_per_second <= 0) {
    return 0;
  }
  const double seconds = 2.0 * d / r.dgemm_flops_per_second + 1.0 / r.exp_per_second +
                         sizeof(double) / r.write_bytes_per_second;
  return 1.0 / seconds;
}

}  // namespace kexp::core
