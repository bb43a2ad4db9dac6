// `kexp diff`: two result folders' rows matched by cell and repeat; the runs only one
// has, the shape and accuracy columns that differ (numbers within a relative tolerance),
// and each timed phase's median against the other's, flagged when their measured ranges do
// not overlap; then the text that reports it.
#include "reporting/diff.hpp"
#include "reporting/resolved_config.hpp"
#include "util/text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "reporting/analysis.hpp"
#include "reporting/columns.hpp"
#include "reporting/manifest.hpp"
#include "reporting/symbols.hpp"

namespace kexp::core {

namespace {

/// A run's row as column → text.
using Fields = std::map<std::string, std::string>;

/// A run: its cell's id and its repeat.
using RunId = std::pair<std::string, std::string>;

std::map<RunId, Fields> runs_of(const CsvTable& t) {
  std::map<RunId, Fields> out;
  const auto cell = t.column(column_name(Column::cell));
  const auto repeat = t.column(column_name(Column::repeat));
  if (!cell || !repeat) return out;
  for (const auto& row : t.rows) {
    if (*cell >= row.size() || *repeat >= row.size()) continue;
    Fields f;
    for (std::size_t i = 0; i < t.columns.size() && i < row.size(); ++i) f[t.columns[i]] = row[i];
    out.emplace(std::pair{row[*cell], row[*repeat]}, std::move(f));
  }
  return out;
}

std::string field(const Fields& f, Column column) {
  const auto it = f.find(column_name(column));
  return it == f.end() ? std::string() : it->second;
}

bool close(double a, double b, double tolerance) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b)) + 1e-12;
}

}  // namespace

namespace {

bool is_param_column(const std::string& c) {
  return c.rfind("dataset.", 0) == 0 || c.rfind("kernel.", 0) == 0 || c.rfind("solver.", 0) == 0;
}

/// A run by what it is rather than by its cell's id: its plugins, form and repeat, and the
/// value of every parameter column of either folder (`columns`), where a value at its
/// default (as either folder's manifest records it) and a column the row's folder lacks
/// count alike, as not written.
std::string parameter_key(const Fields& f, const std::vector<std::string>& columns,
                          const ParamDefaults& defaults) {
  std::string key = field(f, Column::dataset) + '\n' + field(f, Column::kernel) + '\n' +
                    field(f, Column::solver) + '\n' + field(f, Column::form) + '\n' +
                    field(f, Column::repeat);
  for (const std::string& c : columns) {
    const auto it = f.find(c);
    std::string value = it == f.end() ? std::string() : it->second;
    const Column plugin_column = c.rfind("dataset.", 0) == 0  ? Column::dataset
                                 : c.rfind("kernel.", 0) == 0 ? Column::kernel
                                                              : Column::solver;
    if (!value.empty() && defaults.is_default(field(f, plugin_column), c, value)) value.clear();
    key += '\n' + c + '=' + value;
  }
  return key;
}

}  // namespace

ResultsDiff diff_results(const ResultFolder& a, const ResultFolder& b, double tolerance) {
  const CsvTable table_a = a.read_results();
  const CsvTable table_b = b.read_results();
  auto runs_a = runs_of(table_a);
  auto runs_b = runs_of(table_b);
  const StoredManifest manifest_a = read_manifest(a.manifest_file());
  const StoredManifest manifest_b = read_manifest(b.manifest_file());
  ParamDefaults defaults(manifest_b.document);
  defaults.merge(ParamDefaults(manifest_a.document));
  ResultsDiff d;
  std::error_code ec;
  d.configs_compared = std::filesystem::is_regular_file(a.config_file(), ec) &&
                       std::filesystem::is_regular_file(b.config_file(), ec);
  if (d.configs_compared) {
    for (const ConfigChange& c : config_changes(a.read_config(), b.read_config(), &defaults)) {
      d.config.push_back(fmt::format("{}: {} in A, {} in B", c.path, c.there, c.here));
    }
  }
  // Runs whose ids differ are matched by their parameters: a folder of another version (its
  // ids made by another rule, or its plugins with fewer parameters) against this one.
  std::vector<std::string> columns;
  for (const CsvTable* t : {&table_a, &table_b}) {
    for (const std::string& c : t->columns) {
      if (is_param_column(c) && std::find(columns.begin(), columns.end(), c) == columns.end())
        columns.push_back(c);
    }
  }
  std::map<std::string, std::vector<RunId>> unmatched_b;  // parameter key → runs only in B
  for (const auto& [key, fb] : runs_b) {
    if (runs_a.count(key) == 0) unmatched_b[parameter_key(fb, columns, defaults)].push_back(key);
  }
  std::vector<std::pair<RunId, RunId>> matched;  // (A's run, B's run) of other ids
  for (const auto& [key, fa] : runs_a) {
    if (runs_b.count(key) > 0) continue;
    const auto it = unmatched_b.find(parameter_key(fa, columns, defaults));
    if (it == unmatched_b.end() || it->second.empty()) continue;
    matched.emplace_back(key, it->second.front());
    it->second.erase(it->second.begin());
  }
  d.matched_by_parameters = matched.size();
  if (!matched.empty()) {
    const std::string rule_a = cell_id_rule(manifest_a.document);
    const std::string rule_b = cell_id_rule(manifest_b.document);
    std::vector<std::string> only_a, only_b;
    for (const std::string& c : table_a.columns) {
      if (is_param_column(c) && !table_b.column(c)) only_a.push_back(c);
    }
    for (const std::string& c : table_b.columns) {
      if (is_param_column(c) && !table_a.column(c)) only_b.push_back(c);
    }
    const auto version = [](const StoredManifest& m) {
      return m.document.is_object() ? m.document.value("kexp_version", std::string("?"))
                                    : std::string("?");
    };
    std::string why;
    if (rule_a != rule_b) {
      why = fmt::format(
          "A was written by kexp {}, whose cell ids hash {}, and B by kexp {}, whose ids leave "
          "{}; the seeds of data and cells derive from the ids, so random data and features "
          "differ between the two",
          version(manifest_a),
          rule_a == "every parameter" ? "every parameter, defaults included" : rule_a,
          version(manifest_b),
          rule_b == kCellIdRule ? "the parameters at their default out" : rule_b);
    } else if (!only_a.empty() || !only_b.empty()) {
      why =
          fmt::format("the plugins' parameters differ (kexp {} and {}):{}{}", version(manifest_a),
                      version(manifest_b),
                      only_a.empty() ? "" : fmt::format(" only A has {}", fmt::join(only_a, ", ")),
                      only_b.empty() ? "" : fmt::format(" only B has {}", fmt::join(only_b, ", ")));
    } else {
      why = fmt::format("kexp {} and {} name the same cells differently", version(manifest_a),
                        version(manifest_b));
    }
    d.id_note = why;
  }
  // Each matched run once under A's id, with B's row.
  for (const auto& [ka, kb] : matched) {
    runs_b.emplace(ka, runs_b.at(kb));
    runs_b.erase(kb);
  }
  d.lowest_ratio = std::numeric_limits<double>::infinity();
  d.highest_ratio = 0;
  const std::vector<Column> shape_columns = columns_read_by(kDiffShape);
  const std::vector<Column> accuracy_columns = columns_read_by(kDiffAccuracy);
  for (const auto& [key, fa] : runs_a) {
    const std::string run = key.first + " repeat " + key.second;
    const auto it = runs_b.find(key);
    if (it == runs_b.end()) {
      d.only_in_a.push_back(run);
      continue;
    }
    const Fields& fb = it->second;
    ++d.compared;
    const std::string what = fmt::format("{} ({} {} {})", run, field(fa, Column::kernel),
                                         field(fa, Column::solver), field(fa, Column::form));
    for (const Column column : shape_columns) {
      if (field(fa, column) != field(fb, column)) {
        d.accuracy.push_back(fmt::format("{}: {} {} against {}", what, column_name(column),
                                         field(fa, column), field(fb, column)));
      }
    }
    for (const Column column : accuracy_columns) {
      const std::string ta = field(fa, column), tb = field(fb, column);
      double va = 0, vb = 0;
      const bool na = parse_number(ta, va), nb = parse_number(tb, vb);
      const bool same = (!na && !nb && ta == tb) || (na && nb && close(va, vb, tolerance));
      if (!same) {
        d.accuracy.push_back(fmt::format("{}: {} {} against {}", what, column_name(column),
                                         ta.empty() ? "(empty)" : ta, tb.empty() ? "(empty)" : tb));
      }
    }
    for (const PhaseColumns& p : kTimedPhases) {
      double ma = 0, mb = 0;
      if (!parse_number(field(fa, p.seconds), ma) || !parse_number(field(fb, p.seconds), mb) ||
          !(ma > 0) || !(mb > 0)) {
        continue;
      }
      // A folder written before phases were measured repeatedly has the medians alone.
      double lo_a = ma, hi_a = ma, lo_b = mb, hi_b = mb;
      (void)parse_number(field(fa, p.seconds_min), lo_a);
      (void)parse_number(field(fa, p.seconds_max), hi_a);
      (void)parse_number(field(fb, p.seconds_min), lo_b);
      (void)parse_number(field(fb, p.seconds_max), hi_b);
      ++d.phases_compared;
      const double ratio = mb / ma;
      d.lowest_ratio = std::min(d.lowest_ratio, ratio);
      d.highest_ratio = std::max(d.highest_ratio, ratio);
      if (hi_a < lo_b || hi_b < lo_a) {
        d.timing.push_back(
            fmt::format("{}: {} {:.4g} s ({:.4g} … {:.4g}) against {:.4g} s "
                        "({:.4g} … {:.4g}), ×{:.3g}",
                        what, p.phase, ma, lo_a, hi_a, mb, lo_b, hi_b, ratio));
      }
    }
  }
  for (const auto& [key, fb] : runs_b) {
    if (runs_a.count(key) == 0) d.only_in_b.push_back(key.first + " repeat " + key.second);
  }
  if (d.phases_compared == 0) d.lowest_ratio = d.highest_ratio = 0;
  return d;
}

std::string diff_report(const ResultsDiff& d, const std::string& a, const std::string& b,
                        std::size_t limit) {
  std::string out;
  const auto list = [&](const std::string& title, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    out += fmt::format("{} ({}):\n", title, lines.size());
    for (std::size_t i = 0; i < lines.size() && i < limit; ++i) out += "  " + lines[i] + "\n";
    if (lines.size() > limit) out += fmt::format("  … and {} more\n", lines.size() - limit);
  };
  // What was asked first: the runs differ as the configurations do.
  out += fmt::format("A = {}, B = {}\n", a, b);
  if (!d.configs_compared) {
    out += "configurations: not compared (a folder has no config.yaml)\n";
  } else if (d.config.empty()) {
    out += "configurations: the same cells (where results go aside)\n";
  } else {
    list("configurations differ", d.config);
  }
  out += fmt::format("{} in both {} and {}\n", count_of(d.compared, "run"), a, b);
  if (d.matched_by_parameters > 0) {
    out += fmt::format("{} of them with other cell ids, matched by their parameters: {}\n",
                       d.matched_by_parameters, d.id_note);
  }
  list("only in " + a, d.only_in_a);
  list("only in " + b, d.only_in_b);
  list("results that differ", d.accuracy);
  if (d.accuracy.empty() && d.compared > 0) {
    out +=
        "results: the same in every run (status, sizes, training, test and validation "
        "errors)\n";
  }
  if (d.phases_compared > 0) {
    out += fmt::format(
        "times: {} of {} phases outside each other's measured range; the median time of {} "
        "over {} runs from ×{:.3g} to ×{:.3g}\n",
        d.timing.size(), d.phases_compared, b, a, d.lowest_ratio, d.highest_ratio);
    list("phases whose ranges do not overlap", d.timing);
  }
  return out;
}

}  // namespace kexp::core
