// results.csv's rows gathered into cells (the numeric columns over a cell's ok repeats, its
// runs' times summed from the timed phases, its failures), the swept parameter columns,
// the error measure a report ranks by, and the one rule that picks the best cell
// (reporting/analysis.hpp).
#include "reporting/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <unordered_map>

namespace kexp::core {

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

namespace {

bool is_param_column(const std::string& c) {
  return c.rfind("dataset.", 0) == 0 || c.rfind("kernel.", 0) == 0 || c.rfind("solver.", 0) == 0;
}

/// Whether a column is one a cell keeps as text, never averaged over its repeats.
bool text_column(const std::string& name) {
  const ColumnInfo* column = find_column(name);
  return column != nullptr && (column->readers & kSummaryText) != 0;
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
