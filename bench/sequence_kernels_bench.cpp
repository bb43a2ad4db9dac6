// The sequence kernels' Gram matrices through the real plugins, on sequences sampled from
// the `hmm` dataset (two 4-state models over 4 symbols, every sequence of length L):
//   HmmMarginal/n/L    hmm_marginal, K(X, X) of n sequences: the forward recursion of each
//                      pair, n²/2 pairs × L steps × S² (the model is fitted once, outside)
//   HmmFisher/n/L      hmm_fisher, K(X, X): forward–backward per sequence, then ΦᵀΦ
//   Spectrum/n/L       spectrum (k = 3), K(X, X): a merge of sorted word counts per pair
//   Sample/n           the hmm dataset's sampling of n sequences of length 100
//   ReadFile/n         the sequences dataset's load of a file of n sequences of length 100
//                      (about 104·n bytes, written before it is timed)
// Wall clock (UseRealTime): the Gram loops run on every thread.
//
//   build/bin/sequence_kernels_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "kexp/kexp.hpp"
#include "run_benchmarks.hpp"
#include "support/plugins.hpp"

namespace {

using kexp::test::make_dataset;
using kexp::test::make_kernel;

kexp::Data sequences(long n, long L) {
  const auto dataset = make_dataset("hmm", {{"n", std::to_string(n)},
                                            {"states", "4"},
                                            {"symbols", "4"},
                                            {"min_length", std::to_string(L)},
                                            {"max_length", std::to_string(L)}});
  return dataset->load(kexp::DatasetContext{1, {}});
}

void gram(benchmark::State& state, const char* name, const kexp::test::TextParams& params) {
  const kexp::Data data = sequences(state.range(0), state.range(1));
  const auto kernel = make_kernel(name, params);
  kernel->fit(kexp::KernelFitData{&data.X, &data.y, 1, data.alphabet.size()});
  arma::mat K;
  for (auto _ : state) {
    kernel->gram(data.X, K);
    benchmark::DoNotOptimize(K.memptr());
  }
  state.counters["pairs_per_second"] = benchmark::Counter(
      0.5 * static_cast<double>(state.range(0)) * static_cast<double>(state.range(0) + 1),
      benchmark::Counter::kIsIterationInvariantRate);
}

void BM_HmmMarginal(benchmark::State& state) { gram(state, "hmm_marginal", {{"states", "4"}}); }
void BM_HmmFisher(benchmark::State& state) { gram(state, "hmm_fisher", {{"states", "4"}}); }
void BM_Spectrum(benchmark::State& state) { gram(state, "spectrum", {{"k", "3"}}); }

void BM_Sample(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(sequences(state.range(0), 100).X.memptr());
}

/// A sequences file of the hmm dataset's sequences, `+1 acbd…`, in a folder of its own.
struct SequenceFile {
  std::filesystem::path folder;
  explicit SequenceFile(long n) {
    folder =
        std::filesystem::temp_directory_path() / ("kexp-sequences-" + std::to_string(getpid()));
    std::filesystem::create_directories(folder);
    const kexp::Data data = sequences(n, 100);
    std::ofstream out(folder / "train.txt");
    std::string line;
    for (arma::uword j = 0; j < data.X.n_cols; ++j) {
      line = data.y[j] > 0 ? "+1 " : "-1 ";
      for (arma::uword t = 0; t < data.X.n_rows && data.X(t, j) >= 0; ++t)
        line += static_cast<char>('a' + static_cast<int>(data.X(t, j)));
      out << line << '\n';
    }
  }
  ~SequenceFile() {
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
  }
};

void BM_ReadFile(benchmark::State& state) {
  const SequenceFile file(state.range(0));
  const auto dataset = make_dataset("sequences", {{"train", "train.txt"}});
  for (auto _ : state) {
    benchmark::DoNotOptimize(dataset->load(kexp::DatasetContext{1, file.folder}).X.memptr());
  }
}

BENCHMARK(BM_HmmMarginal)->Args({2000, 100})->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK(BM_HmmFisher)->Args({2000, 100})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Spectrum)->Args({2000, 100})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Sample)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadFile)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) { return kexp::bench::run_benchmarks(argc, argv); }
