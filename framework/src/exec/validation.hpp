// Model selection inside a group: each cell's solver fitted anew on every validation
// split of the training part and judged on the split's held-out part, before the cell's
// own fit. The split's K, cross block and diagonal (or Φ columns) are cut out of the
// group's K or Φ, so that validation costs no kernel evaluation; a kernel that learns is
// fitted again on each split's fit part instead (once per group and split, from a seed
// derived from the group's), and the split's inputs computed from it.
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "exec/cell_result.hpp"
#include "exec/data.hpp"
#include "exec/gram_store.hpp"
#include "exec/group_kernel.hpp"
#include "kexp/kernel.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// The validation of a group's cells on `data`'s splits, with the group's `kernel`; keeps
/// the kernels fitted on each split (a kernel that learns) for the group's later cells.
class GroupValidation {
 public:
  GroupValidation(const GroupKernel& kernel, const PreparedData& data)
      : source_(kernel), data_(data) {}

  /// Fits a new solver of `solver` in `form` on each split and predicts its held-out part,
  /// into `result`'s validation figures; does nothing without splits. Called before the
  /// cell's own fit, while the group's K or Φ in `inputs` is intact; the solver may
  /// overwrite its copy. `kernel` is the group's kernel (for a kernel that learns nothing,
  /// the one it uses as it is). A solver that reaches the kernel (`reaching`) is given
  /// each split's points instead, and the kernel (a kernel that learns: the split's own).
  /// Throws what a split throws, naming the fold.
  void validate(const Variant& solver, Form form, const Kernel& kernel, const GroupInputs& inputs,
                CellResult& result, bool reaching = false);

 private:
  /// A kernel that learns, on validation split `f`: a kernel of the split's own, fitted on
  /// its fit part (kept for the group's later cells), gives K of the fit part, the cross
  /// block and the held-out diagonal (dual) or the two parts' Φ (primal).
  void split_inputs_refitted(std::size_t f, Form form, const std::string& where,
                             arma::mat& inputs_fit, arma::mat& inputs_held, arma::vec& diagonal);

  /// A kernel that learns, fitted on validation split `f`'s fit part: made and fitted the
  /// first time the group asks, then kept.
  /// What the fit threw is kept and thrown again to the group's later cells.
  const std::shared_ptr<Kernel>& split_kernel(std::size_t f, const std::string& where);

  const GroupKernel& source_;
  const PreparedData& data_;
  std::vector<std::shared_ptr<Kernel>> split_kernels_;
  std::vector<std::exception_ptr> split_failures_;
};

}  // namespace kexp::core
