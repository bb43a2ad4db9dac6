// GPU 0 as the runner sees it (gpu_info, built_with_cuda): declared by the SDK's
// kexp/device.hpp, which also holds the device building blocks the solvers use.
#pragma once

#include "kexp/device.hpp"
