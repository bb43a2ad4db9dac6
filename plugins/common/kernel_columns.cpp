// The column cache of the SMO solvers (common/kernel_columns.hpp).
#include "common/kernel_columns.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>
#include <utility>

namespace kexp_solvers {

ColumnCache::ColumnCache(std::size_t slots, std::size_t length, double bytes)
    : columns_(slots + 1), head_(slots), length_(std::max<std::size_t>(length, 1)) {
  const double fit = std::floor(std::max(0.0, bytes) / (8.0 * static_cast<double>(length_)));
  blocks_ = static_cast<std::size_t>(
      std::min(std::max(fit, 2.0), static_cast<double>(std::max<std::size_t>(slots, 2))));
  // Virtual memory only: a page is taken when a column is first written to it. Not asked
  // for huge pages: where the kernel defragments memory for them on a fault, filling a
  // cache of 380 MB took 0.6 s of system time against 0.15–0.23 s in 4 KiB pages.
  const std::size_t entries = blocks_ * length_;
  arena_ = static_cast<double*>(std::malloc(entries * sizeof(double)));
  if (arena_ == nullptr) throw std::bad_alloc();
  columns_[head_].prev = columns_[head_].next = head_;
}

ColumnCache::~ColumnCache() { std::free(arena_); }

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

double* ColumnCache::take_block() {
  if (fresh_ < blocks_) {
    peak_blocks_ = ++fresh_;
    return arena_ + (fresh_ - 1) * length_;
  }
  const std::size_t oldest = columns_[head_].next;  // never the asking column: it is unlinked
  Column& c = columns_[oldest];
  unlink(oldest);
  double* block = c.data;
  c.data = nullptr;
  c.len = 0;
  c.followed = exchanges_.size();
  return block;
}

std::size_t ColumnCache::request(std::size_t slot, std::size_t len, double** data) {
  follow_exchanges(slot);
  Column& c = columns_[slot];
  unlink(slot);  // so that it does not give up its block to itself
  requested_ += static_cast<double>(len);
  if (c.data == nullptr) {
    c.data = take_block();
    c.len = 0;
  }
  const std::size_t first = std::min(c.len, len);
  if (len > c.len) {
    computed_ += static_cast<double>(len - first);
    c.len = len;
  }
  link_last(slot);
  *data = c.data;
  return first;
}

void ColumnCache::swap_slots(std::size_t i, std::size_t j) {
  if (i == j) return;
  const bool li = columns_[i].listed, lj = columns_[j].listed;
  unlink(i);
  unlink(j);
  std::swap(columns_[i].data, columns_[j].data);
  std::swap(columns_[i].len, columns_[j].len);
  std::swap(columns_[i].followed, columns_[j].followed);
  // Each keeps its place in the list as the column it now holds: the order of use is lost
  // for these two only, which LIBSVM's cache accepts too.
  if (lj) link_last(i);
  if (li) link_last(j);
}

void ColumnCache::swap_positions(std::size_t i, std::size_t j) {
  if (i == j) return;
  swap_slots(i, j);  // the entries follow later: the two kinds of exchange commute
  exchanges_.emplace_back(std::min(i, j), std::max(i, j));
  if (exchanges_.size() > 4 * (columns_.size() - 1)) {
    // a long log: every column follows it, and it starts again
    for (std::size_t s = columns_[head_].next; s != head_; s = columns_[s].next) {
      follow_exchanges(s);
    }
    exchanges_.clear();
    for (Column& c : columns_) c.followed = 0;
  }
}

void ColumnCache::follow_exchanges(std::size_t slot) {
  Column& c = columns_[slot];
  const std::size_t end = exchanges_.size();
  if (c.followed == end) return;
  double* data = c.data;
  std::size_t len = c.len;
  for (std::size_t e = c.followed; e < end && len > 0; ++e) {
    const auto [i, j] = exchanges_[e];
    if (len <= i) continue;
    if (len > j) {
      std::swap(data[i], data[j]);
    } else {
      len = i;  // position i now holds a point whose entry is not cached
    }
  }
  c.len = len;
  c.followed = end;
}

void kernel_column(const kexp::Kernel& kernel, const arma::mat& X, std::size_t first,
                   std::size_t count, const double* z, double* out) {
  if (count == 0) return;
  const arma::uword d = X.n_rows;
  // Views of the points and of the output, without copies (Armadillo's auxiliary memory).
  const arma::mat block(const_cast<double*>(X.colptr(first)), d, count, false, true);
  const arma::mat point(const_cast<double*>(z), d, 1, false, true);
  arma::mat column(out, count, 1, false, true);
  kernel.gram(block, point, column, kexp::Kernel::InputsChecked{});
}

}  // namespace kexp_solvers
