// The memory budget of the run, for a solver that sizes a cache to it (svc's and svr's
// kernel columns) instead of to a fixed number.
#pragma once

#include "kexp/export.hpp"

namespace kexp {

/// The bytes kexp holds every cell of the run to (`--max-memory`, by default 80% of the
/// physical memory or of the cgroup's limit, whichever is smaller), set by kexp before it
/// creates any solver; 0 when there is none (a test, a program of one's own). A cell is
/// budgeted at what its solver's Solver::memory_bytes() says, so a cache sized from this
/// figure must be counted there.
KEXP_API double memory_budget();

namespace detail {
/// Sets memory_budget(); kexp calls it once it knows the budget.
KEXP_API void set_memory_budget(double bytes);
}  // namespace detail

}  // namespace kexp
