// The device memory arithmetic (ridge_bytes, gib_text, memory_refusal, …): declared by the
// SDK's kexp/device.hpp, where the solvers reach it.
#pragma once

#include "kexp/device.hpp"
