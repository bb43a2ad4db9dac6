// The run's memory budget, set once by kexp, read by plugins.
#include "kexp/memory_budget.hpp"

#include <atomic>

namespace kexp {

namespace {
std::atomic<double> budget{0.0};
}  // namespace

double memory_budget() { return budget.load(); }

void detail::set_memory_budget(double bytes) { budget.store(bytes > 0 ? bytes : 0.0); }

}  // namespace kexp
