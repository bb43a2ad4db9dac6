// Where each cell of a group stands towards the group's K (the last reader, beside K,
// after it), and how the group's K, K(X, X*) and the buffer handed on between groups
// change hands: K taken from the buffer, K(X, X*) placed in K's old memory, K and the
// dual cells' inputs released.
#include "exec/gram_store.hpp"

#include <utility>

#include "plugin/registry.hpp"

namespace kexp::core {

namespace {

/// A cell that reads the group's K.
bool uses_gram(const GroupCell& g) { return reads_gram(*g.cell, *g.solver); }

}  // namespace

bool reaches_kernel(const Cell& cell, const Variant& solver) {
  return cell.form == Form::Dual && reaches_kernel_itself(solver);
}

bool reads_gram(const Cell& cell, const Variant& solver) {
  return cell.form == Form::Dual && !reaches_kernel(cell, solver);
}

std::size_t last_gram_reader(const std::vector<GroupCell>& cells) {
  for (std::size_t i = cells.size(); i-- > 0;) {
    if (uses_gram(cells[i])) return i;
  }
  return cells.size();
}

std::vector<GramPlace> gram_places(const std::vector<GroupCell>& cells) {
  const std::size_t last = last_gram_reader(cells);
  std::vector<GramPlace> places(cells.size());
  bool built = false;  // a cell before this one reads K
  for (std::size_t i = 0; i < cells.size(); ++i) {
    places[i].last_reader = i == last;
    places[i].beside_gram = built && i < last && !uses_gram(cells[i]);
    places[i].after_gram = i > last || last == cells.size();
    built = built || uses_gram(cells[i]);
  }
  return places;
}

void GroupInputs::take_buffer(GramBuffer& buffer, arma::uword n, bool gram_first) {
  if (gram_first && buffer.memory.n_rows == n && buffer.memory.n_cols == n) {
    K = std::move(buffer.memory);
  }
  buffer.memory.reset();
}

void GroupInputs::place_cross(GramBuffer& buffer, arma::uword n, arma::uword m) {
  if (have_gram) return;
  if (buffer.memory.n_elem >= n * m && m > 0) {
    cross_in_buffer = std::make_unique<arma::mat>(buffer.memory.memptr(), n, m, false, true);
  } else {
    buffer.memory.reset();
  }
}

void GroupInputs::release_gram(GramBuffer& buffer) {
  if (have_gram) buffer.memory = std::move(K);
  K.reset();
  have_gram = false;
}

void GroupInputs::release_duals(GramBuffer& buffer) {
  release_gram(buffer);
  cross_in_buffer.reset();
  K_cross.reset();
  k_diag.reset();
  have_cross = false;
  buffer.memory.reset();
}

}  // namespace kexp::core
