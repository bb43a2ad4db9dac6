// The support vector machines of summary.md: their cost table (support vectors and kernel
// evaluations beside time and memory) and, for each primal–dual series of SVMs over n,
// where the dual's sparsity wins.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "reporting/summary_tables.hpp"

namespace kexp::core::summary {

namespace {

constexpr const char* kSupportVectors = "support_vectors";
constexpr const char* kBounded = "bounded_support_vectors";
constexpr const char* kEvaluations = "kernel_evaluations";
constexpr const char* kHitRate = "cache_hit_rate";

bool is_svm(const CellSummary& c) { return c.stat(kSupportVectors).count > 0; }

std::string percent(double fraction) { return fmt::format("{:.0f}%", 100.0 * fraction); }

std::string or_dash(const MeanStd& s, const std::string& text) {
  return s.count > 0 ? text : std::string("—");
}

/// The dual cells of a series: the pair's dual cell and those that differ from it in the
/// dataset's n alone.
std::vector<const CellSummary*> dual_series(const std::vector<CellSummary>& cells,
                                            const CellSummary& dual) {
  std::vector<const CellSummary*> out;
  for (const CellSummary& c : cells) {
    if (c.solver != dual.solver || c.kernel != dual.kernel || c.dataset != dual.dataset ||
        c.params_of("dataset", "dataset.n") != dual.params_of("dataset", "dataset.n") ||
        c.params_of("kernel") != dual.params_of("kernel") ||
        c.params_of("solver") != dual.params_of("solver") || c.ok == 0) {
      continue;
    }
    out.push_back(&c);
  }
  std::sort(out.begin(), out.end(), [](const CellSummary* a, const CellSummary* b) {
    return a->stat(Column::n_train).mean < b->stat(Column::n_train).mean;
  });
  return out;
}

}  // namespace

std::vector<std::string> sparsity_findings(const std::vector<CellSummary>& cells,
                                           const std::vector<FormPair>& pairs,
                                           const std::vector<std::string>& swept) {
  std::vector<std::string> lines;
  for (const CrossoverSeries& s : crossover_series(pairs)) {
    const CellSummary& dual = *s.pair->dual;
    const CellSummary& primal = *s.pair->primal;
    if (!is_svm(dual)) continue;
    const std::vector<const CellSummary*> series = dual_series(cells, dual);
    if (series.empty()) continue;
    double low = INFINITY, high = -INFINITY;
    for (const CellSummary* c : series) {
      const double f = c->stat(kSupportVectors).mean / c->stat(Column::n_train).mean;
      low = std::min(low, f);
      high = std::max(high, f);
    }
    const CellSummary& last = *series.back();
    const double n = last.stat(Column::n_train).mean;
    const double sv = last.stat(kSupportVectors).mean / n;
    const MeanStd evaluations = last.stat(kEvaluations);
    const std::string params = swept_params(dual, swept, [](const std::string& column) {
      return column != "dataset.n" && column.rfind("kernel.", 0) != 0;
    });
    std::string text = fmt::format(
        "{} ({}), {}{}: {} of the points are support vectors at n = {} ({}–{} over n = {} … "
        "{})",
        dual.solver, dual.form, dual.kernel, params.empty() ? "" : " (" + params + ")", percent(sv),
        number_text(n), percent(low), percent(high),
        number_text(series.front()->stat(Column::n_train).mean), number_text(n));
    if (evaluations.count > 0) {
      text += fmt::format(", and it computed {:.2g}·n² kernel values", evaluations.mean / (n * n));
    }
    const std::string kernel = swept_params(
        primal, swept, [](const std::string& column) { return column.rfind("kernel.", 0) == 0; });
    const std::string against = fmt::format(
        "against {} on {} features{}", primal.solver,
        std::isfinite(s.D) ? fmt::format("D = {}", number_text(s.D)) : std::string("its"),
        kernel.empty() ? "" : " (" + kernel + ")");
    if (!s.measured) {
      text += fmt::format("; {}, the {} is cheaper at every n swept", against,
                          s.primal_cheaper_first ? "primal" : "dual");
    } else if (!s.measured->unresolved.empty()) {
      text += fmt::format("; {}, where the two cross is not resolved", against);
    } else if (s.primal_cheaper_first) {
      text += fmt::format("; {}, the dual is cheaper above n ≈ {} only", against,
                          crossover_text(*s.measured));
    } else {
      text += fmt::format("; {}, its sparsity wins below n ≈ {}, the primal above", against,
                          crossover_text(*s.measured));
    }
    lines.push_back(text);
  }
  return lines;
}

void svm_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
               std::string& md) {
  if (std::none_of(cells.begin(), cells.end(), is_svm)) return;
  Table t;
  t.header = {column_name(Column::cell), column_name(Column::solver), column_name(Column::form),
              column_name(Column::kernel)};
  for (const auto& s : swept) t.header.push_back(column_heading(s));
  for (const char* h :
       {"n", "D", "support vectors", "SV / n", "bounded", "kernel evaluations", "evaluations / n²",
        "cache hits", "time (s)", "fit (s)", "memory (MB)", "peak RSS (MB)"}) {
    t.header.emplace_back(h);
  }
  for (const CellSummary& c : cells) {
    if (!is_svm(c)) continue;
    std::vector<std::string> r = {c.cell, c.solver, c.form, c.kernel};
    for (const auto& s : swept) r.push_back(param_value(c, s));
    const double n = c.stat(Column::n_train).mean;
    const MeanStd sv = c.stat(kSupportVectors), evaluations = c.stat(kEvaluations);
    const MeanStd hits = c.stat(kHitRate), bounded = c.stat(kBounded);
    r.push_back(number_text(n));
    r.push_back(number_text(c.stat(Column::feature_dim).mean));
    r.push_back(with_std(sv));
    r.push_back(percent(sv.mean / n));
    r.push_back(or_dash(bounded, number_text(bounded.mean)));
    r.push_back(or_dash(evaluations, fmt::format("{:.3g}", evaluations.mean)));
    r.push_back(or_dash(evaluations, fmt::format("{:.3g}", evaluations.mean / (n * n))));
    r.push_back(or_dash(hits, percent(hits.mean)));
    r.push_back(with_std(c.stat(kTimeSeconds)));
    r.push_back(with_std(c.stat(Column::fit_seconds)));
    r.push_back(fmt::format("{:.3g}", c.stat(Column::matrix_bytes).mean / 1e6));
    const MeanStd peak = c.stat(Column::peak_rss_bytes);
    r.push_back(or_dash(peak, fmt::format("{:.3g}", peak.mean / 1e6)));
    t.rows.push_back(std::move(r));
  }
  const std::string same = t.drop_constant_columns({column_name(Column::cell)});
  md += fmt::format(
            "## Support vector machines\n\nWhat an SVM's cost follows: its support vectors (the "
            "points with αᵢ ≠ 0, which the dual keeps to predict; bounded: αᵢ = C) and, in the "
            "dual, the kernel values it computed (its columns of K, each computed once while "
            "the cache held it) against the n² of the whole K, beside time and memory "
            "(memory: the bytes of the main matrices and the solver's own, its cache "
            "included).{}\n\n",
            same.empty() ? "" : " The same in every row: " + same + ".") +
        t.markdown();
}

}  // namespace kexp::core::summary
