// Whether two solver sides are counterparts: one primal and one dual, sharing at least one
// parameter that defines the model and agreeing on every parameter they share.
#include "sweep/pairing.hpp"

#include "kexp/execution_target.hpp"

namespace kexp::core {

bool counterparts(const SolverSide& a, const SolverSide& b) {
  if (a.form == b.form || (a.form != "primal" && a.form != "dual") ||
      (b.form != "primal" && b.form != "dual")) {
    return false;
  }
  std::size_t shared = 0;
  for (const auto& [name, value] : a.params) {
    const auto it = b.params.find(name);
    if (it == b.params.end()) continue;
    if (it->second != value) return false;
    if (name != kPrecisionParam && name != kDeviceParam && name != "tolerance") ++shared;
  }
  return shared > 0;
}

}  // namespace kexp::core
