// The two backends of kexp/device_backend.hpp, each made once per process, and the probe
// of GPU 0 (kexp::device::gpu_info). Private to kexp_device: a solver reaches a backend
// by kexp::device::backend(name).
#pragma once

#include <string>

#include "kexp/device_backend.hpp"

namespace kexp::device {

/// The host backend (host_backend.cpp).
[[nodiscard]] Backend& host_backend();

/// The CUDA backend (cuda_backend.cu); in a build without CUDA, Error saying so
/// (cuda_absent.cpp).
[[nodiscard]] Backend& cuda_backend();

/// GPU 0: its name and memory, or why there is none. Never throws.
bool probe_cuda(std::string& name, std::string& reason, double& free_bytes, double& total_bytes);

}  // namespace kexp::device
