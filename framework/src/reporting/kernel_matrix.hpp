// kernels/ of a result folder, with `output.kernel_matrix`: the Gram matrices of a run's
// dual cells as NumPy .npy files, and a heat map of each K drawn by gnuplot.
//
//   kernels/<cell>-<repeat>-K.npy       K(X, X), n × n: K[i, j] = k(x_i, x_j)
//   kernels/<cell>-<repeat>-K-test.npy  K(X, X*), n × m, with `kernel_matrix: with_test`
//   kernels/<cell>-<repeat>-K.gp, .svg  the heat map of K, samples ordered by target
//
// `np.load("kernels/<cell>-<repeat>-K.npy")` reads one. The .npy format (NumPy format
// version 1.0): the magic "\x93NUMPY", the version, a little-endian header length, a
// Python dict literal {'descr': '<f8', 'fortran_order': True, 'shape': (n, m)} padded
// with spaces to a multiple of 64 bytes and ended by '\n', then the doubles column by
// column as Armadillo holds them.
#pragma once

#include <armadillo>
#include <string>

#include "reporting/result_folder.hpp"

namespace kexp::core {

/// The bytes of a .npy file of an n × m matrix of doubles: its header and 8·n·m.
double npy_file_bytes(arma::uword n, arma::uword m);

/// The most cells along each side of a heat map: K is averaged over blocks of samples.
constexpr arma::uword kHeatMapCells = 200;

/// `m` as the bytes of a .npy file.
std::string npy_bytes(const arma::mat& m);

/// The header of a .npy file of an n × m matrix of doubles in column order.
std::string npy_header(arma::uword n, arma::uword m);

/// What a heat map of K shows.
struct KernelHeatMap {
  std::string name;   ///< the file stem: <name>.gp draws <name>.svg (write_gram_matrix sets it)
  std::string title;  ///< "K(X, X): gaussian(sigma=1) on circles, repeat 0"
  bool classification = false;
};

/// The gnuplot script of the heat map of K (square) with its rows and columns ordered by
/// `order_by` (the training targets or labels, stably), averaged over at most
/// kHeatMapCells × kHeatMapCells blocks, its data inline; only K's lower triangle is read
/// when `lower_only`.
std::string kernel_heat_map_script(const arma::mat& K, const arma::vec& order_by,
                                   const KernelHeatMap& map, bool lower_only = false);

/// Writes kernels/<stem>-K.npy from K (only its lower triangle read when `lower_only`;
/// the file holds the whole symmetric matrix) and its heat map, ordered by `targets`,
/// when gnuplot runs. The file is streamed from K a column at a time, with no copy of K,
/// into a temporary file renamed into place when whole. Returns the .npy file; throws
/// kexp::Error naming the file and the system's reason (a full disk) when it cannot be
/// written, leaving no partial file.
std::filesystem::path write_gram_matrix(const ResultFolder& folder, const std::string& stem,
                                        const arma::mat& K, bool lower_only,
                                        const arma::vec& targets, KernelHeatMap map);

/// Writes kernels/<stem>-K-test.npy from K(X, X*). Returns the file.
std::filesystem::path write_cross_gram_matrix(const ResultFolder& folder, const std::string& stem,
                                              const arma::mat& K_cross);

}  // namespace kexp::core
