// Finding what a solver holds on the GPU (kexp/device_memory.hpp).
#include "kexp/device_memory.hpp"

#include "kexp/solver.hpp"

namespace kexp {

DeviceMemory::~DeviceMemory() = default;

std::optional<double> device_memory_bytes(const Solver& solver, std::size_t n, std::size_t m,
                                          std::size_t d) {
  const auto* memory = dynamic_cast<const DeviceMemory*>(&solver);
  if (memory == nullptr) return std::nullopt;
  const double bytes = memory->device_memory_bytes(n, m, d);
  if (!(bytes > 0)) return std::nullopt;
  return bytes;
}

}  // namespace kexp
