// The data readers on a file of 10⁶ rows, d = 10 (friedman1's inputs and target, 10
// significant digits, as a program writes them), from the page cache:
//   ReadFile/<format>   the file's bytes into memory, as the readers take them (in parts, on
//                       every thread), and one_read_over_parts: the time of one read() of
//                       the whole file over that, measured one after the other
//   Load/<format>       the dataset plugin's whole load through the real loader: reading,
//                       checking and parsing into the d × n matrix
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
#include <random>
#include <string>
#include <utility>

#include "datasets/text_reader.hpp"
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

void ReadFile(benchmark::State& state, const fs::path& file, std::uintmax_t bytes) {
  // In each iteration the file is read as the readers read it (in parts, on every thread)
  // and then with one read(), one after the other under the same load; the time is the
  // first's, and one_read_over_parts their ratio.
  const kexp_datasets::ReadInParts one_read{std::numeric_limits<std::size_t>::max()};
  double parts_s = 0, one_s = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    {
      const auto text = kexp_datasets::read_text_file(file, "train", file.string(), bytes + 1);
      benchmark::DoNotOptimize(text.text.data());
    }
    const double p =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    start = std::chrono::steady_clock::now();
    {
      const auto text =
          kexp_datasets::read_text_file(file, "train", file.string(), bytes + 1, one_read);
      benchmark::DoNotOptimize(text.text.data());
    }
    one_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    parts_s += p;
    state.SetIterationTime(p);
  }
  state.counters["one_read_over_parts"] = one_s / parts_s;
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
