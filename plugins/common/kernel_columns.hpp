// Columns of a kernel matrix for the SMO solvers of svc and svr, computed on demand by the
// kernel's Gram path and kept in a least-recently-used cache of a fixed number of bytes.
//
// The dual problems of support vector machines (smo.hpp) read their matrix
// Q_ij = s_i s_j (k(x_i, x_j) + offset) + δ_ij·shift one column at a time, and a column
// is read again and again while its variable is in the working set. A column costs n
// kernel evaluations, so the columns read last are kept (LIBSVM's cache, Chang & Lin 2011,
// §5.1): a column holds the entries of the positions [0, len) it was asked for, and is
// extended when a longer part is asked for later. The cache is one allocation cut into as
// many full columns as its budget holds (at least two, so that the two columns of one SMO
// step are in memory together), whose pages are taken as columns are first written: a
// block given up is reused, never freed and faulted in again. When every block is taken,
// the column read longest ago gives up its block.
//
// The entries of a column are computed by Kernel::gram on the block of points it lacks
// (kexp::gram's blocked DGEMM and vectorised transform, on kexp's threads), never one
// k(x, z) at a time.
#pragma once

#include <armadillo>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "kexp/kernel.hpp"

namespace kexp_solvers {

/// The least-recently-used cache of columns, by slot.
class ColumnCache {
 public:
  /// `slots` columns of at most `length` entries; `bytes` the most the columns may hold
  /// together (raised to two full columns).
  ColumnCache(std::size_t slots, std::size_t length, double bytes);
  ~ColumnCache();
  ColumnCache(const ColumnCache&) = delete;
  ColumnCache& operator=(const ColumnCache&) = delete;

  /// Column `slot` with at least its entries [0, len): returns the first entry the caller
  /// must compute (len when all are cached), and the column's storage in `data`. The
  /// column becomes the most recently used; its storage stays valid until a later
  /// request for another column takes it, which the next request never does (it holds two).
  std::size_t request(std::size_t slot, std::size_t len, double** data);

  /// Exchanges positions i and j in every column, and the columns of slots i and j. A
  /// column that holds position i but not j is cut back to [0, i). A column's entries
  /// follow when it is next asked for, every exchange since then at once: shrinking
  /// exchanges thousands of positions at a time, and many columns are never read again.
  void swap_positions(std::size_t i, std::size_t j);

  /// Exchanges the columns of slots i and j only.
  void swap_slots(std::size_t i, std::size_t j);

  /// Entries asked for, and of those the ones that had to be computed.
  [[nodiscard]] double entries_requested() const { return requested_; }
  [[nodiscard]] double entries_computed() const { return computed_; }
  /// The most bytes the columns held at once (the blocks ever taken).
  [[nodiscard]] double peak_bytes() const {
    return 8.0 * static_cast<double>(peak_blocks_) * static_cast<double>(length_);
  }
  /// The bytes the cache may hold.
  [[nodiscard]] double capacity_bytes() const {
    return 8.0 * static_cast<double>(blocks_) * static_cast<double>(length_);
  }

 private:
  struct Column {
    double* data = nullptr;  ///< a block of the arena, or none
    std::size_t len = 0;     ///< entries [0, len) hold values
    std::size_t prev = 0, next = 0;
    bool listed = false;
    std::size_t followed = 0;  ///< the exchanges of exchanges_ applied to it
  };

  /// Applies to column `slot` the exchanges of positions it has not followed yet.
  void follow_exchanges(std::size_t slot);
  void unlink(std::size_t slot);
  void link_last(std::size_t slot);
  /// A free block: one never used, or the least recently used column's.
  double* take_block();

  std::vector<Column> columns_;  ///< one per slot, then the list's head
  /// Every exchange of positions (i < j), in order, since the log was last emptied (once
  /// it is long, every column follows it and it starts again).
  std::vector<std::pair<std::size_t, std::size_t>> exchanges_;
  std::size_t head_;
  std::size_t length_;  ///< entries of one block: a full column
  std::size_t blocks_;  ///< blocks the budget holds
  double* arena_ = nullptr;
  std::size_t fresh_ = 0;  ///< blocks taken so far; the others were never touched
  std::size_t peak_blocks_ = 0;
  double requested_ = 0, computed_ = 0;
};

/// Fills out[0, count) with k(x_r, z) for the `count` points of X from column `first`
/// (d × n) against the point z (one of X's), through kernel.gram() on that block. X must
/// have been checked (kexp::require_finite) by the caller: the block is not checked again.
void kernel_column(const kexp::Kernel& kernel, const arma::mat& X, std::size_t first,
                   std::size_t count, const double* z, double* out);

}  // namespace kexp_solvers
