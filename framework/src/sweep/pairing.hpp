// Primal-dual pairs: which two cells are the same model trained in the two forms.
//
// Two cells pair when they have the same dataset variant and the same kernel variant,
// one solver works in the primal form and the other in the dual, and the two solvers
// share at least one parameter and agree on every parameter they share: primal ridge
// with λ = 10⁻³ pairs with kernel ridge with λ = 10⁻³, primal gradient descent with a
// step and a number of iterations pairs with dual gradient descent with the same ones.
// Parameters only one of them has (a method choice, a tolerance) do not matter. The
// settings of how a solver runs, `precision`, `device` and `tolerance`, must agree where
// both have them but do not count as shared: gp_regression (noise) and primal_ridge
// (lambda) both in precision: mixed are not the same model, nor are linear_svc and dual_gd
// with one tolerance; svc and linear_svc with the same c, loss, bias and tolerance are.
#pragma once

#include <map>
#include <string>

namespace kexp::core {

/// A solver as pairing sees it: its form and its parameters as text.
struct SolverSide {
  std::string form;  ///< "primal" or "dual"
  std::map<std::string, std::string> params;
};

/// True when the two solvers are counterparts (the caller checks dataset and kernel).
bool counterparts(const SolverSide& a, const SolverSide& b);

}  // namespace kexp::core
