// What summary.md and the plots are computed from: results.csv's rows gathered into cells
// (the numeric columns over a cell's ok repeats, its runs' times summed from the timed
// phases, its failures), the swept parameter columns, primal-dual pairs with their largest
// prediction difference (from the rows, else from predictions/), mean and deviation,
// power-law fits and crossovers, the error measure a report ranks by, and the one rule
// that picks the best cell.
#include "reporting/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <set>
#include <unordered_map>

#include "reporting/result_folder.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

MeanStd mean_std(const std::vector<double>& values) {
  MeanStd s;
  double sum = 0;
  for (double v : values) {
    if (!std::isfinite(v)) {
      ++s.nonfinite;
      continue;
    }
    sum += v;
    ++s.count;
  }
  if (s.count == 0) {
    s.mean = std::nan("");
    return s;
  }
  s.mean = sum / static_cast<double>(s.count);
  if (s.count > 1) {
    double squares = 0;
    for (double v : values) {
      if (std::isfinite(v)) squares += (v - s.mean) * (v - s.mean);
    }
    s.std = std::sqrt(squares / static_cast<double>(s.count - 1));
  }
  return s;
}

std::optional<PowerFit> fit_power_law(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (x[i] > 0 && y[i] > 0 && std::isfinite(x[i]) && std::isfinite(y[i])) {
      lx.push_back(std::log(x[i]));
      ly.push_back(std::log(y[i]));
    }
  }
  const std::set<double> distinct(lx.begin(), lx.end());
  if (distinct.size() < 2) return std::nullopt;
  const auto n = static_cast<double>(lx.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    mx += lx[i];
    my += ly[i];
  }
  mx /= n;
  my /= n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    sxx += (lx[i] - mx) * (lx[i] - mx);
    sxy += (lx[i] - mx) * (ly[i] - my);
    syy += (ly[i] - my) * (ly[i] - my);
  }
  PowerFit fit;
  fit.exponent = sxy / sxx;
  fit.intercept = my - fit.exponent * mx;
  double residual = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    const double r = ly[i] - (fit.intercept + fit.exponent * lx[i]);
    residual += r * r;
  }
  fit.r2 = syy > 0 ? 1.0 - residual / syy : 1.0;
  fit.points = lx.size();
  return fit;
}

std::optional<double> crossover(const std::vector<double>& x, const std::vector<double>& a,
                                const std::vector<double>& b) {
  for (std::size_t i = 0; i + 1 < x.size(); ++i) {
    if (!(x[i] > 0 && x[i + 1] > 0 && a[i] > 0 && a[i + 1] > 0 && b[i] > 0 && b[i + 1] > 0)) {
      continue;
    }
    const double d0 = std::log(a[i]) - std::log(b[i]);
    const double d1 = std::log(a[i + 1]) - std::log(b[i + 1]);
    if (d0 == 0) return x[i];
    if ((d0 < 0) == (d1 < 0) || d1 == 0) continue;
    const double t = d0 / (d0 - d1);
    return std::exp(std::log(x[i]) + t * (std::log(x[i + 1]) - std::log(x[i])));
  }
  if (!x.empty() && a.back() > 0 && a.back() == b.back()) return x.back();
  return std::nullopt;
}

MeanStd CellSummary::stat(const std::string& column) const {
  const auto it = values.find(column);
  if (it == values.end()) return MeanStd{std::nan(""), 0, 0};
  return mean_std(it->second);
}

std::string CellSummary::params_of(const std::string& prefix, const std::string& except) const {
  std::string out;
  for (const auto& [column, value] : params) {
    if (column == except || column.rfind(prefix + ".", 0) != 0 || value.empty()) continue;
    out += fmt::format("{}{}={}", out.empty() ? "" : ", ", column.substr(prefix.size() + 1), value);
  }
  return out;
}

std::string shown_value(const std::string& text) {
  double v = 0;
  if (!parse_number(text, v) || !std::isfinite(v)) return text;
  if (text.find_first_of(".eE") == std::string::npos) return text;  // an integer: exact
  // Significant digits as written: the digits, less the leading zeros, up to an exponent.
  std::size_t digits = 0;
  bool leading = true;
  for (const char ch : text) {
    if (ch == 'e' || ch == 'E') break;
    if (ch < '0' || ch > '9') continue;
    if (leading && ch == '0') continue;
    leading = false;
    ++digits;
  }
  return digits > 4 ? fmt::format("{:.4g}", v) : text;
}

bool parse_number(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  out = v;
  return true;
}

namespace {

bool is_param_column(const std::string& c) {
  return c.rfind("dataset.", 0) == 0 || c.rfind("kernel.", 0) == 0 || c.rfind("solver.", 0) == 0;
}

/// Whether a column is one a cell keeps as text, never averaged over its repeats.
bool text_column(const std::string& name) {
  const ColumnInfo* column = find_column(name);
  return column != nullptr && (column->readers & kSummaryText) != 0;
}

/// y_pred of a predictions file, or empty.
std::vector<double> read_predictions(const fs::path& file) {
  std::vector<double> out;
  const CsvTable t = [&] {
    try {
      return read_csv(file);
    } catch (const std::exception&) {
      return CsvTable{};
    }
  }();
  // A classifier's class hides how far apart two forms are: compare its scores.
  const auto col = t.column("decision") ? t.column("decision") : t.column("y_pred");
  if (!col) return out;
  for (const auto& row : t.rows) {
    double v = 0;
    if (*col < row.size() && parse_number(row[*col], v)) out.push_back(v);
  }
  return out;
}

}  // namespace

std::vector<CellSummary> summarize_cells(const CsvTable& table) {
  std::vector<CellSummary> cells;
  std::unordered_map<std::string, std::size_t> index;
  // What each column is, once for the table: the fixed ones by their place, the parameters,
  // and the numbers a cell keeps over its repeats.
  std::map<Column, std::optional<std::size_t>> at;
  const auto col = [&](const std::vector<std::string>& row, Column column) -> std::string {
    auto it = at.find(column);
    if (it == at.end()) it = at.emplace(column, table.column(column_name(column))).first;
    const auto& i = it->second;
    return i && *i < row.size() ? row[*i] : std::string();
  };
  // The range and count of each phase's measurements are read below, into the run's time
  // and its range, and by nothing else: not kept per cell, which in a sweep of 10⁵ cells
  // saves a third of the values.
  std::set<std::string> read_here;
  for (const PhaseColumns& phase : kTimedPhases) {
    for (const Column c : {phase.seconds_min, phase.seconds_max, phase.measurements})
      read_here.insert(column_name(c));
  }
  read_here.insert(column_name(Column::seed));
  std::vector<std::size_t> param_columns, value_columns;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (is_param_column(table.columns[i])) {
      param_columns.push_back(i);
    } else if (!text_column(table.columns[i]) && read_here.count(table.columns[i]) == 0) {
      value_columns.push_back(i);
    }
  }
  cells.reserve(table.rows.size());
  for (const auto& row : table.rows) {
    const std::string id = col(row, Column::cell);
    auto [it, fresh] = index.emplace(id, cells.size());
    if (fresh) {
      CellSummary c;
      c.cell = id;
      c.dataset = col(row, Column::dataset);
      c.kernel = col(row, Column::kernel);
      c.solver = col(row, Column::solver);
      c.form = col(row, Column::form);
      for (const std::size_t i : param_columns) {
        if (i < row.size()) c.params.emplace_hint(c.params.end(), table.columns[i], row[i]);
      }
      cells.push_back(std::move(c));
    }
    CellSummary& c = cells[it->second];
    ++c.runs;
    if (col(row, Column::status) != "ok") {
      c.failures.emplace_back(col(row, Column::repeat),
                              col(row, Column::status) + ": " + col(row, Column::error));
      continue;
    }
    ++c.ok;
    if (col(row, Column::converged) == "false") ++c.not_converged;
    for (const std::size_t i : value_columns) {
      double v = 0;
      if (i >= row.size() || !parse_number(row[i], v)) continue;
      c.values[table.columns[i]].push_back(v);
    }
    // The time of a run: its phases' medians, and the range their measurements span
    // (a folder written before phases were measured repeatedly has the medians alone).
    double time = 0, time_min = 0, time_max = 0;
    bool any_time = false;
    for (const PhaseColumns& phase : kTimedPhases) {
      double v = 0;
      if (!parse_number(col(row, phase.seconds), v)) continue;
      any_time = true;
      time += v;
      double lo = v, hi = v;
      (void)parse_number(col(row, phase.seconds_min), lo);
      (void)parse_number(col(row, phase.seconds_max), hi);
      time_min += lo;
      time_max += hi;
    }
    if (any_time) {
      c.values[kTimeSeconds].push_back(time);
      c.values[kTimeSecondsMin].push_back(time_min);
      c.values[kTimeSecondsMax].push_back(time_max);
      c.values[kTimeBelowFloor].push_back(time < kNoiseFloorSeconds ? 1.0 : 0.0);
    }
    if (const std::string p = col(row, Column::paired_with); !p.empty()) c.paired_with = p;
    double diff = 0;
    if (parse_number(col(row, Column::prediction_max_diff), diff)) {
      c.prediction_max_diff = std::max(c.prediction_max_diff, diff);
    }
  }
  mark_shown_parameters(cells);
  return cells;
}

void mark_shown_parameters(std::vector<CellSummary>& cells) {
  const auto plugin_of = [](const CellSummary& c, const std::string& column) -> std::string {
    if (column.rfind("dataset.", 0) == 0) return "d:" + c.dataset;
    if (column.rfind("kernel.", 0) == 0) return "k:" + c.kernel;
    return "s:" + c.solver;
  };
  // The values each column takes over the cells of each plugin.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> values;
  for (const CellSummary& c : cells) {
    for (const auto& [column, value] : c.params)
      values[{plugin_of(c, column), column}].insert(value);
  }
  const auto varies = [&](const CellSummary& c, const std::string& column) {
    const auto it = c.params.find(column);
    return it != c.params.end() && !it->second.empty() &&
           values[{plugin_of(c, column), column}].size() > 1;
  };
  // The cells by what they are without one column: cells that differ in that column alone
  // share a key.
  const auto without = [](const CellSummary& c, const std::string& column) {
    std::string key = c.dataset + '\n' + c.kernel + '\n' + c.solver + '\n' + c.form;
    for (const auto& [name, value] : c.params) {
      if (name != column) key += '\n' + name + '=' + value;
    }
    return key;
  };
  std::map<std::string, std::set<std::string>> alone;  // key without column → its values
  for (const CellSummary& c : cells) {
    for (const auto& [column, value] : c.params) {
      if (varies(c, column)) alone[column + '\n' + without(c, column)].insert(value);
    }
  }
  std::map<std::string, std::vector<std::size_t>> names;  // a cell's plugins and shown values
  for (std::size_t i = 0; i < cells.size(); ++i) {
    CellSummary& c = cells[i];
    c.shown.clear();
    std::string name = c.dataset + '\n' + c.kernel + '\n' + c.solver + '\n' + c.form;
    for (const auto& [column, value] : c.params) {
      // A choice (map=rff) is context and stays; a number shows where it varies alone.
      double number = 0;
      const bool choice = !parse_number(value, number);
      if (varies(c, column) && (choice || alone[column + '\n' + without(c, column)].size() > 1)) {
        c.shown.insert(column);
        name += '\n' + column + '=' + value;
      }
    }
    names[name].push_back(i);
  }
  for (const auto& [name, same] : names) {
    if (same.size() < 2) continue;
    for (const std::size_t i : same) {
      CellSummary& c = cells[i];
      for (const auto& [column, value] : c.params) {
        if (varies(c, column)) c.shown.insert(column);
      }
    }
  }
}

std::vector<std::string> swept_columns(const CsvTable& table,
                                       const std::vector<CellSummary>& cells) {
  std::vector<std::string> out;
  for (const std::string& column : table.columns) {
    if (!is_param_column(column)) continue;
    std::set<std::string> seen;
    for (const CellSummary& c : cells) {
      const auto it = c.params.find(column);
      seen.insert(it == c.params.end() ? std::string() : it->second);
    }
    if (seen.size() > 1) out.push_back(column);
  }
  return out;
}

SolverSide solver_side(const CellSummary& c) {
  SolverSide s;
  s.form = c.form;
  for (const auto& [column, value] : c.params) {
    if (column.rfind("solver.", 0) == 0 && !value.empty()) s.params[column.substr(7)] = value;
  }
  return s;
}

namespace {

/// The largest |ŷ − ŷ′| of two cells over the repeats both have, from their
/// predictions/<cell>-<repeat>.csv files; −1 when there are none to compare.
double predictions_max_diff(const CellSummary& p, const CellSummary& d, const fs::path& folder) {
  double out = -1;
  for (std::size_t r = 0; r < std::max(p.runs, d.runs); ++r) {
    const auto a =
        read_predictions(ResultFolder(folder).prediction_file(p.cell, std::to_string(r)));
    const auto b =
        read_predictions(ResultFolder(folder).prediction_file(d.cell, std::to_string(r)));
    if (a.empty() || a.size() != b.size()) continue;
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
    out = std::max(out, m);
  }
  return out;
}

/// The dual cells of one dataset and kernel variant whose solvers have the same plugin and
/// the same parameters set, indexed by the values of the parameters a primal solver shares
/// with them, built once per set of shared names.
struct DualKind {
  std::vector<std::string> names;  ///< the solver's parameters with a value, in order
  std::vector<std::size_t> cells;  ///< indices into the cells, in order
  /// shared names (joined) → the values of those names → the cells that have them
  std::map<std::string, std::map<std::string, std::vector<std::size_t>>> by_shared;
};

}  // namespace

std::vector<FormPair> find_pairs(const std::vector<CellSummary>& cells, const fs::path& folder,
                                 std::size_t* compared) {
  // Two cells pair only within one dataset and kernel variant: the dual cells are put in
  // buckets by that, and in a bucket by the plugin and parameter names of their solver,
  // so that each primal cell looks its counterparts up by the values of the parameters it
  // shares with each kind (sweep/pairing.hpp), instead of trying every dual cell.
  const auto bucket_of = [](const CellSummary& c) {
    return c.dataset + '\n' + c.kernel + '\n' + c.params_of("dataset") + '\n' +
           c.params_of("kernel");
  };
  std::map<std::string, std::vector<DualKind>> buckets;
  std::vector<SolverSide> sides(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    sides[i] = solver_side(cells[i]);
    if (cells[i].form != "dual") continue;
    std::vector<std::string> names;
    for (const auto& [name, value] : sides[i].params) names.push_back(name);
    std::vector<DualKind>& kinds = buckets[bucket_of(cells[i])];
    const auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const DualKind& k) {
      return k.names == names && cells[k.cells.front()].solver == cells[i].solver;
    });
    if (kind != kinds.end()) {
      kind->cells.push_back(i);
    } else {
      kinds.push_back(DualKind{names, {i}, {}});
    }
  }
  std::vector<FormPair> pairs;
  for (std::size_t pi = 0; pi < cells.size(); ++pi) {
    const CellSummary& p = cells[pi];
    if (p.form != "primal") continue;
    const auto bucket = buckets.find(bucket_of(p));
    if (bucket == buckets.end()) continue;
    std::vector<std::size_t> matched;
    for (DualKind& kind : bucket->second) {
      // The names they share, and the primal's values of them. Whether those names
      // include one that counts (not only how a solver runs) depends on the names alone:
      // asked of the rule with the values made equal.
      std::string shared, values;
      SolverSide primal_names{"primal", {}}, dual_names{"dual", {}};
      for (const std::string& name : kind.names) {
        const auto it = sides[pi].params.find(name);
        if (it == sides[pi].params.end()) continue;
        shared += name + '\n';
        values += it->second + '\n';
        primal_names.params[name];
        dual_names.params[name];
      }
      if (!counterparts(primal_names, dual_names)) continue;
      auto [index, fresh] = kind.by_shared.try_emplace(shared);
      if (fresh) {
        for (const std::size_t di : kind.cells) {
          std::string key;
          for (const std::string& name : kind.names) {
            if (sides[pi].params.count(name) > 0) key += sides[di].params.at(name) + '\n';
          }
          index->second[key].push_back(di);
        }
      }
      const auto found = index->second.find(values);
      if (found == index->second.end()) continue;
      for (const std::size_t di : found->second) {
        if (compared != nullptr) ++*compared;
        if (counterparts(sides[pi], sides[di])) matched.push_back(di);
      }
    }
    std::sort(matched.begin(), matched.end());
    for (const std::size_t di : matched) {
      const CellSummary& d = cells[di];
      FormPair pair{&p, &d, -1};
      if (d.paired_with == p.cell) pair.prediction_max_diff = d.prediction_max_diff;
      if (p.paired_with == d.cell) pair.prediction_max_diff = p.prediction_max_diff;
      if (pair.prediction_max_diff < 0 && !folder.empty()) {
        pair.prediction_max_diff = predictions_max_diff(p, d, folder);
      }
      pairs.push_back(pair);
    }
  }
  return pairs;
}

ErrorMeasure error_measure(const std::vector<CellSummary>& cells) {
  bool accuracy = false;
  for (const CellSummary& c : cells) accuracy = accuracy || c.stat(Column::test_accuracy).count > 0;
  const Column test = accuracy ? Column::test_accuracy : Column::test_rmse;
  const Column validation = accuracy ? Column::validation_accuracy : Column::validation_rmse;
  ErrorMeasure m{column_name(test), !accuracy, column_name(test)};
  for (const CellSummary& c : cells) {
    if (c.stat(validation).count > 0) m.selection = column_name(validation);
  }
  return m;
}

std::vector<ErrorMeasure> error_measures() {
  std::vector<ErrorMeasure> out;
  for (const auto& [test, validation] :
       {std::pair{Column::test_rmse, Column::validation_rmse},
        std::pair{Column::test_accuracy, Column::validation_accuracy}}) {
    const bool lower_is_better = test == Column::test_rmse;
    out.push_back({column_name(test), lower_is_better, column_name(test)});
    out.push_back({column_name(test), lower_is_better, column_name(validation)});
  }
  return out;
}

bool may_be_best(const CellSummary& c, const ErrorMeasure& measure, BestAmong among) {
  if (!std::isfinite(c.stat(measure.selection).mean)) return false;
  return among == BestAmong::finite_selection || std::isfinite(c.stat(measure.column).mean);
}

bool better_cell(const CellSummary& a, const CellSummary& b, const ErrorMeasure& measure) {
  const double ea = a.stat(measure.selection).mean, eb = b.stat(measure.selection).mean;
  return measure.lower_is_better ? ea < eb : ea > eb;
}

TimeRange time_range(const CellSummary& c) {
  TimeRange r;
  r.median = c.stat(kTimeSeconds).mean;
  r.low = r.high = r.median;
  if (const auto it = c.values.find(kTimeSecondsMin); it != c.values.end() && !it->second.empty()) {
    r.low = *std::min_element(it->second.begin(), it->second.end());
  }
  if (const auto it = c.values.find(kTimeSecondsMax); it != c.values.end() && !it->second.empty()) {
    r.high = *std::max_element(it->second.begin(), it->second.end());
  }
  if (const auto it = c.values.find(kTimeBelowFloor); it != c.values.end()) {
    r.below_floor =
        std::any_of(it->second.begin(), it->second.end(), [](double v) { return v > 0; });
  }
  return r;
}

std::optional<Crossover> measured_crossover(const std::vector<double>& n,
                                            const std::vector<TimeRange>& primal,
                                            const std::vector<TimeRange>& dual, const char* axis) {
  std::vector<double> pm, dm, plo, phi, dlo, dhi;
  for (std::size_t i = 0; i < n.size(); ++i) {
    pm.push_back(primal[i].median);
    dm.push_back(dual[i].median);
    plo.push_back(primal[i].low);
    phi.push_back(primal[i].high);
    dlo.push_back(dual[i].low);
    dhi.push_back(dual[i].high);
  }
  const auto x = crossover(n, pm, dm);
  if (!x) return std::nullopt;
  Crossover c;
  c.n = *x;
  // The samples either side of the crossover: resolved when neither is below the noise
  // floor and at one of them at least the two ranges do not overlap.
  std::size_t i = 0;
  while (i + 1 < n.size() && n[i + 1] < *x) ++i;
  const std::size_t j = std::min(i + 1, n.size() - 1);
  const auto apart = [&](std::size_t k) {
    return primal[k].high < dual[k].low || dual[k].high < primal[k].low;
  };
  if (primal[i].below_floor || dual[i].below_floor || primal[j].below_floor ||
      dual[j].below_floor) {
    c.unresolved =
        fmt::format("not resolved: times below {:g} ms at {} = {} or {}", kNoiseFloorSeconds * 1e3,
                    axis, number_text(n[i]), number_text(n[j]));
  } else if (!apart(i) && !apart(j)) {
    c.unresolved =
        fmt::format("not resolved: the times overlap within their measured range at {} = {} and {}",
                    axis, number_text(n[i]), number_text(n[j]));
  }
  // The range the spread implies: the crossover of the primal's fastest against the
  // dual's slowest, and of the primal's slowest against the dual's fastest.
  const auto a = crossover(n, plo, dhi);
  const auto b = crossover(n, phi, dlo);
  c.low = a && b ? std::min(*a, *b) : std::nan("");
  c.high = a && b ? std::max(*a, *b) : std::nan("");
  if (a && !b) c.low = c.high = *a;
  if (b && !a) c.low = c.high = *b;
  c.bounded = a.has_value() && b.has_value();
  return c;
}

std::string crossover_text(const Crossover& c) {
  if (!c.unresolved.empty()) return c.unresolved;
  if (!std::isfinite(c.low)) return fmt::format("{} (range beyond the swept n)", number_text(c.n));
  if (!c.bounded) {
    return fmt::format("{} ({} … beyond the swept n)", number_text(c.n), number_text(c.low));
  }
  if (number_text(c.low) == number_text(c.high))
    return number_text(c.n);  // one measurement: no spread to show
  return fmt::format("{} ({} … {})", number_text(c.n), number_text(c.low), number_text(c.high));
}

std::vector<const CellSummary*> best_per_solver(const std::vector<CellSummary>& cells,
                                                const ErrorMeasure& measure) {
  std::vector<const CellSummary*> all;
  all.reserve(cells.size());
  for (const CellSummary& c : cells) all.push_back(&c);
  const auto of_solver = [](const CellSummary& cell) { return std::optional(cell.solver); };
  std::vector<const CellSummary*> out;
  for (const auto& best :
       best_cells<std::string>(all, measure, BestAmong::finite_selection, of_solver)) {
    out.push_back(best.second);
  }
  return out;
}

}  // namespace kexp::core
