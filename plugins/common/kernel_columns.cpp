// The column cache of the SMO solvers (common/kernel_columns.hpp).
#include "common/kernel_columns.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace kexp_solvers {

ColumnCache::ColumnCache(std::size_t slots, std::size_t length, double bytes)
    : columns_(slots + 1), head_(slots) {
  const double entries = std::floor(std::max(0.0, bytes) / 8.0);
  const double least = 2.0 * static_cast<double>(length);
  capacity_ = static_cast<std::size_t>(std::max(entries, least));
  columns_[head_].prev = columns_[head_].next = head_;
}

void ColumnCache::unlink(std::size_t slot) {
  Column& c = columns_[slot];
  if (!c.listed) return;
  columns_[c.prev].next = c.next;
  columns_[c.next].prev = c.prev;
  c.listed = false;
}

void ColumnCache::link_last(std::size_t slot) {
  Column& c = columns_[slot];
  Column& h = columns_[head_];
  c.next = head_;
  c.prev = h.prev;
  columns_[h.prev].next = slot;
  h.prev = slot;
  c.listed = true;
}

void ColumnCache::drop(std::size_t slot) {
  Column& c = columns_[slot];
  unlink(slot);
  used_ -= c.allocated;
  c.data.reset();
  c.len = 0;
  c.allocated = 0;
}

std::size_t ColumnCache::request(std::size_t slot, std::size_t len, double** data) {
  Column& c = columns_[slot];
  unlink(slot);  // so that it is not dropped to make room for itself
  requested_ += static_cast<double>(len);
  std::size_t first = std::min(c.len, len);
  if (len > c.allocated) {
    const std::size_t more = len - c.allocated;
    while (capacity_ - used_ < more) {
      const std::size_t oldest = columns_[head_].next;
      if (oldest == head_) break;  // cannot happen: two full columns always fit
      drop(oldest);
    }
    std::unique_ptr<double[]> grown(new double[len]);
    if (c.len > 0) std::memcpy(grown.get(), c.data.get(), c.len * sizeof(double));
    c.data = std::move(grown);
    used_ += more;
    c.allocated = len;
    peak_entries_ = std::max(peak_entries_, used_);
  }
  if (len > c.len) {
    computed_ += static_cast<double>(len - first);
    c.len = len;
  }
  link_last(slot);
  *data = c.data.get();
  return first;
}

void ColumnCache::swap_slots(std::size_t i, std::size_t j) {
  if (i == j) return;
  const bool li = columns_[i].listed, lj = columns_[j].listed;
  unlink(i);
  unlink(j);
  std::swap(columns_[i].data, columns_[j].data);
  std::swap(columns_[i].len, columns_[j].len);
  std::swap(columns_[i].allocated, columns_[j].allocated);
  // Each keeps its place in the list as the column it now holds: the order of use is lost
  // for these two only, which LIBSVM's cache accepts too.
  if (lj) link_last(i);
  if (li) link_last(j);
}

void ColumnCache::swap_positions(std::size_t i, std::size_t j) {
  if (i == j) return;
  swap_slots(i, j);
  if (i > j) std::swap(i, j);
  for (std::size_t s = columns_[head_].next; s != head_; s = columns_[s].next) {
    Column& c = columns_[s];
    if (c.len <= i) continue;
    if (c.len > j) {
      std::swap(c.data[i], c.data[j]);
    } else {
      c.len = i;  // position i now holds a point whose entry is not cached
    }
  }
}

void kernel_column(const kexp::Kernel& kernel, const arma::mat& X, std::size_t first,
                   std::size_t count, const double* z, double* out) {
  if (count == 0) return;
  const arma::uword d = X.n_rows;
  // Views of the points and of the output, without copies (Armadillo's auxiliary memory).
  const arma::mat block(const_cast<double*>(X.colptr(first)), d, count, false, true);
  const arma::mat point(const_cast<double*>(z), d, 1, false, true);
  arma::mat column(out, count, 1, false, true);
  kernel.gram(block, point, column);
}

}  // namespace kexp_solvers
