// `output.kernel_matrix` in a run: what it will write, sized before anything runs (the
// dry run states it, and a run whose files would not fit the disk is refused), the plan's
// cells that build no K said at the start, and the callbacks that stream a group's K and
// K(X, X*) into kernels/ (reporting/kernel_matrix.hpp) as the executor builds them. A file
// that cannot be written is a warning naming the file and the reason; the cell keeps its
// results.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "exec/data.hpp"
#include "exec/group.hpp"
#include "reporting/result_folder.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// What output.kernel_matrix will write for the selected cells over every repeat: its
/// files and bytes on disk, and a note per solver entry whose cells build no K (they reach
/// the kernel: cg_ridge, falkon, precision: single, device: cuda) and so write none.
struct KernelMatrixPlan {
  std::size_t files = 0;
  double bytes = 0;  ///< the .npy files and their heat maps
  std::vector<std::string> notes;
};

/// The plan; empty when output.kernel_matrix is off. `to_run(cell, repeat)` says which
/// runs this run makes (the selected ones not done before); `dims[d]` holds the sizes of
/// dataset variant d (n = 0 when not known: not counted).
KernelMatrixPlan plan_kernel_matrices(const Experiment& e, const Plan& plan,
                                      const std::function<bool(const Cell&, int)>& to_run,
                                      const std::vector<DataDims>& dims);

/// Throws ConfigError at output.kernel_matrix when the plan's bytes would not fit the
/// space free on the disk that holds `out_dir` (or its nearest existing parent), naming
/// both.
void check_kernel_matrix_disk(const Experiment& e, const KernelMatrixPlan& plan,
                              const std::filesystem::path& out_dir);

/// Sets `callbacks` to write the group's K, named after the cell that builds it, and, for
/// `with_test`, K(X, X*): kernels/<cell>-<repeat>-K.npy and -K-test.npy, and K's heat
/// map titled with the kernel and dataset variants' names. A file that cannot be written
/// throws kexp::Error naming it, which the executor passes to `callbacks.warning`.
void write_kernel_matrices(GroupCallbacks& callbacks, const ResultFolder& folder,
                           KernelMatrixOutput what, int repeat, const PreparedData& data,
                           const std::string& kernel_name, const std::string& dataset_name);

}  // namespace kexp::core
