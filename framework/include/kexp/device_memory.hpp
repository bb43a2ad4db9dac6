// DeviceMemory: what a solver that runs on a GPU (`device: cuda`) holds in device memory,
// so that the runner can show it in a dry run and refuse, before it starts, a cell that
// needs more than the GPU has free.
//
// A solver declares it by deriving from kexp::DeviceMemory beside kexp::Solver, as a
// kernel declares its device form (kexp/device_form.hpp); the runner finds it by
// dynamic_cast, so the Solver interface and the plugin ABI are unchanged. A solver on the
// host (`device: cpu`) returns 0.
#pragma once

#include <cstddef>
#include <optional>

#include "kexp/export.hpp"

namespace kexp {

class Solver;

/// Implemented, beside kexp::Solver, by a solver that can run on a GPU.
class KEXP_API DeviceMemory {
 public:
  virtual ~DeviceMemory();
  /// Bytes of device memory a fit on n training points and the predictions at m test
  /// points, in d dimensions, hold at their peak: what must be there at once, with a block
  /// of what is streamed at its smallest (a larger block is sized from what is free). For
  /// a primal solver d is D, the dimension of the features it is given. 0 when the solver,
  /// with the parameters it holds, runs its CPU path (`device: cpu`). On the host backend
  /// (`device: host`) the runner checks the figure against KEXP_HOST_DEVICE_MEMORY before
  /// the cell starts, as it checks a GPU cell's against the GPU's free memory; a dual
  /// solver counts it in its Solver::memory_bytes too, a primal one's is added for it.
  [[nodiscard]] virtual double device_memory_bytes(std::size_t n, std::size_t m,
                                                   std::size_t d) const = 0;
};

/// What `solver` says it holds on the GPU for n, m and d; nothing when it declares no
/// DeviceMemory, or holds nothing there (it runs on the host).
[[nodiscard]] KEXP_API std::optional<double> device_memory_bytes(const Solver& solver,
                                                                 std::size_t n, std::size_t m,
                                                                 std::size_t d);

}  // namespace kexp
