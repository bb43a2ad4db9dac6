// The machine's own limits, against which a run's costs are stated.
//
// kexp measures what kernel methods cost, and a time means little without the speed of
// the machine that ran it. `kexp machine` measures, once per machine, four limits that a
// kernel method's phases run into, and keeps them in a small JSON cache:
//   - DGEMM's rate (GFLOP/s) through the BLAS kexp runs with, at n = 2048: what a
//     factorization or a matrix product can reach;
//   - a vectorised exp's rate (values per second) from glibc's vector math library
//     (libmvec), at the widest vectors the CPU executes: code that is not kexp's own;
//   - the memory write bandwidth (bytes per second, 256 MiB written by plain stores);
//   - the processors online.
// Each rate on one thread and on all of them. A run records them in its manifest, and
// summary.md gives each phase's achieved rate as a fraction of its limit: a fit's GFLOP/s
// against DGEMM's, a Gram matrix's entries per second against gram_entry_bound.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace kexp::core {

/// The limits at a given number of threads.
struct MachineRates {
  int threads = 1;
  double dgemm_flops_per_second = 0;
  double exp_per_second = 0;
  double write_bytes_per_second = 0;
};

/// What `kexp machine` measures, and on what.
struct MachineLimits {
  std::string host;
  std::string cpu;           ///< the model name of /proc/cpuinfo
  int cpus = 0;              ///< processors online
  std::string blas_core;     ///< OpenBLAS's kernels during the measurement
  std::string exp_function;  ///< the libmvec function measured ("_ZGVeN8v_exp"), or "exp"
  std::string measured;      ///< when (UTC, ISO 8601)
  double seconds = 0;        ///< how long the measurement took
  double load = -1;          ///< the 1-minute load average before it; −1 when not known
  MachineRates one;          ///< on one thread
  MachineRates all;          ///< on every processor online (BLAS and kexp's loops)

  /// The rates at `threads`: one or all as measured, otherwise the single thread's
  /// scaled by `threads` but never above all's.
  [[nodiscard]] MachineRates at(int threads) const;
};

/// Measures this machine (a few seconds); `quick` measures on small sizes, for tests:
/// the figures are then far below the limits.
MachineLimits measure_machine(bool quick = false);

/// DGEMM's rate (flops per second) on n × n matrices, at the BLAS threads now set: the
/// best of five products after one untimed one.
double measure_dgemm_rate(std::size_t n);

/// A warning when other processes kept the processors busy while `limits` were measured
/// (their load average); empty otherwise.
std::string busy_measurement_warning(const MachineLimits& limits);

/// Where the limits are kept: $KEXP_MACHINE_FILE, else $XDG_CACHE_HOME/kexp/machine.json,
/// else ~/.cache/kexp/machine.json.
std::filesystem::path machine_file();

/// What is wrong with `limits` when a rate is not finite or lies outside what a machine can
/// do (DGEMM between 10 MFLOP/s and 1 TFLOP/s per thread, exp between 1 M and 100 G values
/// per second per thread, writes between 10 MB/s and 1 TB/s per thread, each on all threads
/// at most the threads' count times that and at least one thread's tenth); empty when
/// nothing is. A file edited by hand, or damaged, must not turn the time limit off.
std::string implausible_rates(const MachineLimits& limits);

/// The limits kept in `file` for this machine (the same host, CPU, processors online and
/// BLAS kernels), or nothing when there are none, the file cannot be read, or its rates are
/// implausible (implausible_rates: a warning on stderr, once, and they are measured again
/// where they are needed).
std::optional<MachineLimits> cached_machine(const std::filesystem::path& file);

/// Keeps `limits` in `file`, beside those of other machines (a home folder shared by a
/// cluster's nodes), replacing this machine's; written atomically, only over a regular file
/// or where there is none (kexp::Error for a device, a FIFO or a folder).
void cache_machine(const std::filesystem::path& file, const MachineLimits& limits);

nlohmann::ordered_json to_json(const MachineLimits& limits);
/// Throws kexp::Error when a field is missing or of the wrong type.
MachineLimits machine_from_json(const nlohmann::json& j);

/// The fastest a Gram matrix of a kernel of squared distances can be built on a machine
/// with these rates, in entries per second: per entry, its share of the distances
/// computed by DGEMM (2d flops), one exp and one 8-byte write, one after the other.
double gram_entry_bound(const MachineRates& rates, double d);

}  // namespace kexp::core
