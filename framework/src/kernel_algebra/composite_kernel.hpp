// Kernels made of kernels: positive scalings s·k, sums k₁ + k₂ + …, and products
// k₁·k₂·… (the closure properties of docs/design.md, identity 5). Built by the host from
// kernels loaded as plugins; they are not plugins themselves.
//
// Validity follows from the parts: s·k is PSD when k is and s > 0; a sum or product of PSD
// kernels is PSD (the product by the Schur product theorem). Feature maps, when every part
// has one: √s·φ for s·k; the concatenation (φ₁, φ₂, …) for a sum, D = Σ Dᵢ; the tensor
// product φ₁ ⊗ φ₂ ⊗ … for a product, D = Π Dᵢ. Exact when every part is exact.
// Fitting a composite (Kernel::fit) fits every part on the same training data.
#pragma once

#include <memory>
#include <vector>

#include "kexp/kernel.hpp"

namespace kexp::algebra {

enum class Combination { Sum, Product };

/// s·k for s > 0.
std::shared_ptr<Kernel> scaled(std::shared_ptr<Kernel> kernel, double scale);

/// k₁ + k₂ + … or k₁·k₂·… of one or more kernels.
std::shared_ptr<Kernel> combined(Combination how, std::vector<std::shared_ptr<Kernel>> terms);

}  // namespace kexp::algebra
