// The report's plots: the table of plot families (each drawn by its own file,
// plot_<family>.cpp) with how their plots' names begin, and write_plots, which draws every
// family from the cells, replaces the plots an earlier report drew (and no other file in
// plots/) and runs gnuplot on each script. Also where a parameter's values ask for a log
// axis, from its schema (manifest.json) or from their spacing.
#include "reporting/plots.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "reporting/gnuplot.hpp"
#include "reporting/manifest.hpp"
#include "reporting/plot_error.hpp"
#include "reporting/plot_families.hpp"
#include "reporting/result_folder.hpp"
#include "util/files.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace plot {

namespace {

/// How the names of the error plots begin, over every error measure a run may have: the
/// plots against a parameter and, when `heat`, the heat maps too.
std::vector<std::string> error_stems(bool heat) {
  std::vector<std::string> stems;
  const auto add = [&](const std::string& stem) {
    if (std::find(stems.begin(), stems.end(), stem) == stems.end()) stems.push_back(stem);
  };
  for (const ErrorMeasure& m : error_measures()) add(against_stem(m.column));
  if (heat) {
    for (const ErrorMeasure& m : error_measures()) add(heat_stem(m.selection));
  }
  return stems;
}

/// Whether a file name (without extension) is one the report draws: it begins as the
/// names of a family's plots do.
bool is_report_plot(const std::string& stem) {
  for (const PlotFamily& family : plot_families()) {
    for (const std::string& prefix : family.stems) {
      if (stem.rfind(prefix, 0) == 0) return true;
    }
  }
  return false;
}

}  // namespace

const std::vector<PlotFamily>& plot_families() {
  static const std::vector<PlotFamily> families = {
      {"cost against n", {kCostVsNStem}, cost_vs_n_plots},
      {"cost against the feature dimension D", {kCostVsDimStem}, cost_vs_dim_plots},
      {"error against each swept parameter", error_stems(false), error_plots},
      {"error over two parameters swept together", error_stems(true), interaction_plots},
  };
  return families;
}

std::string kernel_kind(const CellSummary& c, const std::vector<std::string>& swept) {
  return textual_params(c, swept, "kernel.");
}

std::string textual_params(const CellSummary& c, const std::vector<std::string>& swept,
                           const std::string& prefix) {
  std::string out;
  for (const auto& [column, value] : c.params) {
    double v = 0;
    if (column.rfind(prefix, 0) != 0 || value.empty() ||
        (parse_number(value, v) && std::isfinite(v)) ||
        std::find(swept.begin(), swept.end(), column) == swept.end()) {
      continue;
    }
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", column.substr(prefix.size()), value);
  }
  return out;
}

std::string param_symbol(const std::string& column) {
  if (column == "dataset.n") return "n_train";
  return symbol_of(column);
}

std::string axis_label(const std::string& column) {
  if (column == "dataset.n") return "n_train (training points)";
  return param_symbol(column) + " (" + column + ")";
}

std::string metric_label(const std::string& column) {
  std::string out;
  const auto at = column.find('_');
  const std::string part = at == std::string::npos ? column : column.substr(0, at);
  const std::string what = at == std::string::npos ? "" : column.substr(at + 1);
  out = part == "train" ? "training" : part;
  if (what == "rmse") return out + " RMSE";
  if (what.empty()) return out;
  std::string rest = what;
  std::replace(rest.begin(), rest.end(), '_', ' ');
  return out + " " + rest;
}

std::optional<double> x_of(const CellSummary& c, const std::string& column) {
  if (column == "dataset.n") {
    const double n = c.stat(Column::n_train).mean;
    if (std::isfinite(n) && n > 0) return n;
  }
  return value_of(c, column);
}

std::optional<double> value_of(const CellSummary& c, const std::string& column) {
  double v = 0;
  const auto it = c.params.find(column);
  if (it == c.params.end() || !parse_number(it->second, v) || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

}  // namespace plot

bool geometric_values(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() < 2 || !(values.front() > 0)) return false;
  if (values.back() / values.front() >= 50) return true;
  if (values.size() < 3) return false;
  double lo = INFINITY, hi = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    const double r = values[i] / values[i - 1];
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  return lo >= 1.5 && hi <= 1.25 * lo;
}

std::set<std::string> log_scale_columns(const StoredManifest& m) {
  std::set<std::string> out;
  if (!m.document.is_object() || !m.document.contains("plugins")) return out;
  for (const auto& plugin : m.document["plugins"]) {
    if (!plugin.is_object() || !plugin.contains("log_scale") || !plugin.contains("kind") ||
        !plugin["kind"].is_string()) {
      continue;
    }
    for (const auto& name : plugin["log_scale"]) {
      if (name.is_string()) {
        out.insert(plugin["kind"].get<std::string>() + "." + name.get<std::string>());
      }
    }
  }
  return out;
}

PlotResult write_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                       const fs::path& folder, const std::set<std::string>& log_scale,
                       PlotSelection selection, const ParamDefaults& defaults) {
  PlotResult result;
  const plot::ErrorCells error_cells(cells);
  const plot::PlotInputs in{cells,   swept, log_scale, error_cells, selection == PlotSelection::all,
                            defaults};
  plot::Plots drawn;
  for (const plot::PlotFamily& family : plot::plot_families()) family.draw(in, drawn);
  result.not_drawn = std::move(drawn.not_drawn);
  if (selection == PlotSelection::findings) {
    std::map<std::string, std::size_t> details;  // kind → plots left out
    std::vector<std::string> kinds;              // in the order first left out
    for (const plot::Plot& p : drawn.plots) {
      if (p.detail != nullptr && details[p.detail]++ == 0) kinds.emplace_back(p.detail);
    }
    drawn.plots.erase(std::remove_if(drawn.plots.begin(), drawn.plots.end(),
                                     [](const plot::Plot& p) { return p.detail != nullptr; }),
                      drawn.plots.end());
    if (!kinds.empty()) {
      std::size_t total = 0;
      std::vector<std::string> parts;
      for (const std::string& kind : kinds) {
        total += details[kind];
        parts.push_back(fmt::format("{}: {}", kind, details[kind]));
      }
      result.not_drawn.push_back(fmt::format(
          "The plots are those the findings rest on. {} more ({}) {} drawn by `kexp report "
          "--plots all` on this folder, or with `output.plots: all` in the experiment.",
          total, fmt::join(parts, "; "), total == 1 ? "is" : "are"));
    }
  }
  if (drawn.plots.empty()) return result;
  const std::string program = plot::gnuplot_program();
  if (!plot::gnuplot_runs(program)) {
    result.skipped = fmt::format(
        "gnuplot ({}) was not found, so no plots were drawn; the tables are complete. "
        "Install gnuplot-nox (scripts/setup.sh) and run `kexp report` on this folder.",
        program);
    return result;
  }
  const fs::path dir = ResultFolder(folder).plots_dir();
  fs::create_directories(dir);
  // A rebuild replaces the plots of an earlier report, and only those: a plot of the
  // user's own beside them (an experiment's hand-made figures) stays.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto ext = entry.path().extension();
    if ((ext == ".gp" || ext == ".svg") && plot::is_report_plot(entry.path().stem().string())) {
      fs::remove(entry.path(), ec);
    }
  }
  for (const plot::Plot& p : drawn.plots) {
    write_file_atomically(dir / (p.name + ".gp"), plot::script(p));
    if (plot::draw(program, dir, p.name)) {
      result.files.push_back("plots/" + p.name + ".svg");
      result.captions.push_back(
          fmt::format("{}{}{}", p.title, p.caption.empty() ? "" : ". ", fmt::join(p.caption, " ")));
    } else {
      result.failed.push_back("plots/" + p.name + ".gp");
    }
  }
  return result;
}

}  // namespace kexp::core
