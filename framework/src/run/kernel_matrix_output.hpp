// `output.kernel_matrix` in a run: the check, before anything runs, that every K it
// would write is small enough, and the callbacks that write a group's K and K(X, X*)
// into kernels/ (reporting/kernel_matrix.hpp) as the executor builds them.
#pragma once

#include <vector>

#include "config/experiment.hpp"
#include "exec/data.hpp"
#include "exec/group.hpp"
#include "reporting/result_folder.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// Throws ConfigError at output.kernel_matrix when a selected cell that reads K
/// (reads_gram) trains on more than kMaxKernelMatrixPoints points. `dims[d]` holds the
/// sizes of dataset variant d (n = 0 when not known), so a dry run checks it too.
void check_kernel_matrix_size(const Experiment& e, const Plan& plan,
                              const std::vector<bool>& selected, const std::vector<DataDims>& dims);

/// Sets `callbacks` to write the group's K, named after the cell that builds it, and, for
/// `with_test`, K(X, X*): kernels/<cell>-<repeat>-K.npy and -K-test.npy, and K's heat
/// map titled with the kernel and dataset variants' names.
void write_kernel_matrices(GroupCallbacks& callbacks, const ResultFolder& folder,
                           KernelMatrixOutput what, int repeat, const PreparedData& data,
                           const std::string& kernel_name, const std::string& dataset_name);

}  // namespace kexp::core
