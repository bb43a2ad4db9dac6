// summary.md's table of each cell's rates against the machine's own limits (measured by
// `kexp machine`, recorded in manifest.json): the Gram matrix's entries per second against
// the bound of one exp and one write per entry, and the cell's flops per second against
// DGEMM's. Nothing without recorded limits.
#include <fmt/format.h>

#include "reporting/summary_tables.hpp"

namespace kexp::core::summary {

namespace {

std::string percent(double fraction) {
  if (!std::isfinite(fraction) || fraction <= 0) return "—";
  return fmt::format("{:.0f} %", 100.0 * fraction);
}

/// Billions per second.
std::string giga(double per_second) {
  if (!std::isfinite(per_second) || per_second <= 0) return "—";
  return fmt::format("{:.3g}", per_second / 1e9);
}

}  // namespace

void machine_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                   const std::optional<MachineLimits>& m, int threads, std::string& md) {
  if (!m) return;  // the run said how to have them
  md += "## Against this machine's limits\n\n";
  const MachineRates r = m->at(threads);
  md += fmt::format(
      "Measured by `kexp machine` on {} ({} processors, OpenBLAS {} kernels), at {} "
      "thread{}: DGEMM {:.3g} GFLOP/s, exp {:.3g} G values/s ({}), memory writes {:.3g} GB/s. "
      "A Gram matrix's bound is the time per entry of its share of the distances by DGEMM "
      "(2d flops), one exp and one 8-byte write, one after the other; a kernel with no exp "
      "may pass it. The GFLOP/s are the cell's analytic flops over its time (Gram or "
      "features, fit and predict), against DGEMM's.\n\n",
      m->cpu.empty() ? "an unnamed CPU" : m->cpu, m->cpus, m->blas_core, r.threads,
      r.threads == 1 ? "" : "s", r.dgemm_flops_per_second / 1e9, r.exp_per_second / 1e9,
      m->exp_function, r.write_bytes_per_second / 1e9);
  Table t;
  t.header = {"cell", "solver", "form"};
  for (const auto& s : swept) t.header.push_back(column_heading(s));
  for (const char* h : {"n", "d", "Gram G entries/s", "of bound", "GFLOP/s", "of DGEMM"}) {
    t.header.emplace_back(h);
  }
  for (const CellSummary& c : cells) {
    if (c.ok == 0) continue;
    const double n = c.stat(Column::n_train).mean, d = c.stat(Column::d).mean;
    const double gram = c.stat(Column::gram_seconds).mean;
    const double time = c.stat(kTimeSeconds).mean, flops = c.stat(Column::flops).mean;
    std::string entries = "—", of_bound = "—";
    if (c.form == "dual" && gram > 0 && n > 0) {
      const double per_second = n * n / gram;
      entries = giga(per_second);
      of_bound = percent(per_second / gram_entry_bound(r, d));
    }
    const double flops_per_second = time > 0 && flops > 0 ? flops / time : 0;
    std::vector<std::string> row = {c.cell, c.solver, c.form};
    for (const auto& s : swept) row.push_back(param_value(c, s));
    for (std::string v : {number_text(n), number_text(d), entries, of_bound, giga(flops_per_second),
                          percent(flops_per_second / r.dgemm_flops_per_second)}) {
      row.push_back(std::move(v));
    }
    t.rows.push_back(std::move(row));
  }
  const std::string same = t.drop_constant_columns({"cell"});
  if (!same.empty()) md += "The same in every row: " + same + ".\n\n";
  md += t.markdown();
}

}  // namespace kexp::core::summary
