// The data readers on a file of 10⁶ rows, d = 10 (friedman1's inputs and target, 10
// significant digits, as a program writes them), from the page cache:
//   ReadFile/<format>   the file's bytes into memory, as the readers take them (in parts, on
//                       every thread), and one_read_over_parts: the time of one read() of
//                       the whole file over that, measured one after the other
//   Load/<format>       the dataset plugin's whole load through the real loader: reading,
//                       checking and parsing into the d × n matrix
//   ParseLibsvm         parsing the libsvm file's text (in memory) straight into the matrix,
//                       and list_over_direct: the time of parsing it through the list of
//                       entries over that, measured one after the other
// Counters: file_MB, the file's size in 10⁶ bytes; bytes_per_second, its size over the
// wall-clock time (the parsing runs on every thread), in MiB/s. The files are written
// once, into a temporary folder, before the first benchmark.
//
//   build/bin/readers_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only
//   build/bin/readers_bench --rows=100000
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "common/text_file.hpp"
#include "datasets/libsvm_reader.hpp"
#include "kexp/kexp.hpp"
#include "run_benchmarks.hpp"
#include "support/plugins.hpp"

namespace {

namespace fs = std::filesystem;

constexpr int kDim = 10;

/// The two files, written once.
struct Files {
  fs::path folder, csv, libsvm;
  std::uintmax_t csv_bytes = 0, libsvm_bytes = 0;
  long rows = 1000000;

  ~Files() {
    std::error_code ignored;
    if (!folder.empty()) fs::remove_all(folder, ignored);
  }

  void write() {
    std::string pattern = (fs::temp_directory_path() / "kexp-readers-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    folder = pattern;
    csv = folder / "data.csv";
    libsvm = folder / "data.libsvm";
    std::ofstream a(csv);
    std::ofstream b(libsvm);
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::normal_distribution<double> noise(0.0, 1.0);
    char buffer[32];
    auto number = [&](double v) {
      std::snprintf(buffer, sizeof buffer, "%.10g", v);
      return buffer;
    };
    for (int j = 0; j < kDim; ++j) a << 'x' << j << ',';
    a << "y\n";
    double x[kDim];
    for (long i = 0; i < rows; ++i) {
      for (double& v : x) v = u(rng);
      const double y = 10 * std::sin(M_PI * x[0] * x[1]) + 20 * (x[2] - 0.5) * (x[2] - 0.5) +
                       10 * x[3] + 5 * x[4] + noise(rng);
      b << number(y);
      for (int j = 0; j < kDim; ++j) {
        a << number(x[j]) << ',';
        b << ' ' << j + 1 << ':' << number(x[j]);
      }
      a << number(y) << '\n';
      b << '\n';
    }
    a.close();
    b.close();
    csv_bytes = fs::file_size(csv);
    libsvm_bytes = fs::file_size(libsvm);
  }
};

Files& files() {
  static Files f;
  return f;
}

void bytes_per_second(benchmark::State& state, std::uintmax_t bytes) {
  state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

/// Runs first() and then second() in each iteration, one after the other under the same
/// load: the iteration's time is first's, and the counter `ratio` second's time over it.
template <class First, class Second>
void side_by_side(benchmark::State& state, const char* ratio, const First& first,
                  const Second& second) {
  double first_s = 0, second_s = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    first();
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    start = std::chrono::steady_clock::now();
    second();
    second_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    first_s += t;
    state.SetIterationTime(t);
  }
  state.counters[ratio] = second_s / first_s;
}

void ReadFile(benchmark::State& state, const fs::path& file, std::uintmax_t bytes) {
  // The file read as the readers read it (in parts, on every thread), then with one read().
  const kexp_datasets::ReadInParts one_read{std::numeric_limits<std::size_t>::max()};
  const auto read = [&](const kexp_datasets::ReadInParts& parts) {
    const auto text = kexp_datasets::read_text_file(file, "train", file.string(), bytes + 1, parts);
    benchmark::DoNotOptimize(text.text.data());
  };
  side_by_side(
      state, "one_read_over_parts", [&] { read({}); }, [&] { read(one_read); });
  bytes_per_second(state, bytes);
}

void ParseLibsvm(benchmark::State& state, const fs::path& file, std::uintmax_t bytes) {
  // The text parsed straight into the matrix, then through the list of entries.
  const auto text = kexp_datasets::read_text_file(file, "train", file.string(), bytes + 1);
  kexp_datasets::LibsvmOptions list;
  list.direct = false;
  const auto parse = [&](const kexp_datasets::LibsvmOptions& o) {
    const auto no_test = [] { return std::optional<kexp_datasets::TextFile>(); };
    const kexp::Data data = kexp_datasets::libsvm_data(text, no_test, o);
    benchmark::DoNotOptimize(data.X.memptr());
  };
  side_by_side(
      state, "list_over_direct", [&] { parse({}); }, [&] { parse(list); });
  bytes_per_second(state, bytes);
}

void Load(benchmark::State& state, const std::string& plugin, const fs::path& file,
          std::uintmax_t bytes) {
  const auto dataset = kexp::test::make_dataset(plugin, {{"train", file.string()}});
  arma::uword n = 0;
  for (auto _ : state) {
    const kexp::Data data = dataset->load(kexp::DatasetContext{});
    n = data.X.n_cols;
    benchmark::DoNotOptimize(data.X.memptr());
  }
  state.counters["rows"] = static_cast<double>(n);
  bytes_per_second(state, bytes);
}

void register_all() {
  Files& f = files();
  f.write();
  const std::pair<std::string, std::pair<fs::path, std::uintmax_t>> formats[] = {
      {"csv", {f.csv, f.csv_bytes}}, {"libsvm", {f.libsvm, f.libsvm_bytes}}};
  for (const auto& [format, file] : formats) {
    benchmark::RegisterBenchmark(("ReadFile/" + format).c_str(), ReadFile, file.first, file.second)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime();
    benchmark::RegisterBenchmark(("Load/" + format).c_str(), Load, format, file.first, file.second)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RegisterBenchmark("ParseLibsvm", ParseLibsvm, f.libsvm, f.libsvm_bytes)
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime();
}

}  // namespace

int main(int argc, char** argv) {
  // --rows=N, read before Google Benchmark sees the arguments
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--rows=", 0) == 0) {
      files().rows = std::stol(arg.substr(7));
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      break;
    }
  }
  return kexp::bench::run_benchmarks(argc, argv, register_all);
}
