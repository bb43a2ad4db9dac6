#include "reporting/plots.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "reporting/manifest.hpp"
#include "reporting/result_folder.hpp"
#include "sweep/pairing.hpp"
#include "util/files.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string gp_string(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

/// A file-name-safe form of a text: runs of other characters become one '_'.
std::string slug(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-';
    if (keep) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.size() > 80 ? out.substr(0, 80) : out;
}

bool number(const std::string& text, double& out) {
  return parse_number(text, out) && std::isfinite(out);
}

/// A number for a label or a tick: 3 significant digits, without an exponent from 1000
/// to 10⁷ ("1230", not "1.23e+03").
std::string short_number(double v) {
  std::string s = fmt::format("{:.3g}", v);
  if (std::abs(v) < 1000 || std::abs(v) >= 1e7) return s;
  return fmt::format("{:.0f}", std::stod(s));
}

/// Colours that stay apart in print and for the common colour blindnesses (Okabe–Ito).
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#F0E442"};

struct Point {
  double x = 0, y = 0, low = 0, high = 0;  ///< the bar spans [low, high]
};

struct Line {
  std::string title;
  std::vector<Point> points;  ///< sorted by x
  std::size_t colour = 0;
  bool dashed = false;
};

struct Mark {
  double x = 0;
  std::string label;
};

/// The error over a grid of two parameters, drawn as an image with one tick per value.
struct Heat {
  std::vector<double> xs, ys;
  std::map<std::pair<std::size_t, std::size_t>, double> z;  ///< (x index, y index) → error
  std::string zlabel;
  bool logz = false;
};

struct Plot {
  std::string name, title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<Line> lines;
  std::vector<Mark> marks;
  std::vector<std::string> caption;
  std::optional<Heat> heat;
  std::vector<double> xtics;  ///< ticks at these values; empty: gnuplot's own
};

/// The smallest and largest x of a plot's lines (each sorted by x).
std::pair<double, double> x_range(const Plot& p) {
  double lo = INFINITY, hi = -INFINITY;
  for (const Line& l : p.lines) {
    lo = std::min(lo, l.points.front().x);
    hi = std::max(hi, l.points.back().x);
  }
  return {lo, hi};
}

std::string heat_script(const Heat& h) {
  std::string s =
      fmt::format("set xrange [-0.5:{}]\nset yrange [-0.5:{}]\n",
                  static_cast<double>(h.xs.size()) - 0.5, static_cast<double>(h.ys.size()) - 0.5);
  const auto tics = [](const std::vector<double>& values) {
    std::string t = "(";
    for (std::size_t i = 0; i < values.size(); ++i) {
      t += fmt::format("{}{} {}", i ? ", " : "", gp_string(short_number(values[i])), i);
    }
    return t + ")";
  };
  s += "set xtics " + tics(h.xs) + "\nset ytics " + tics(h.ys) + "\nunset grid\n";
  s += "set cblabel " + gp_string(h.zlabel) + "\n";
  s += "set palette defined (0 '#FFFFD9', 0.4 '#C7E9B4', 0.7 '#41B6C4', 1 '#225EA8')\n";
  if (h.logz) s += "set logscale cb\nset format cb '%g'\n";
  s += "$heat << EOD\n";
  for (std::size_t j = 0; j < h.ys.size(); ++j) {
    for (std::size_t i = 0; i < h.xs.size(); ++i) {
      const auto it = h.z.find({i, j});
      s += fmt::format("{} {} {}\n", i, j,
                       it == h.z.end() ? std::string("NaN") : fmt::format("{}", it->second));
    }
    s += "\n";
  }
  s += "EOD\n";
  s += "plot $heat using 1:2:3 with image pixels notitle, \\\n"
       "     $heat using 1:2:(sprintf('%.3g', $3)) with labels notitle textcolor rgb '#000000'\n";
  return s;
}

std::string script(const Plot& p) {
  const std::size_t height = 540 + 18 * p.caption.size();
  std::string s =
      "# kexp plot; run `gnuplot " + p.name + ".gp` here to redraw " + p.name + ".svg\n";
  s += fmt::format(
      "set terminal svg size 860,{} dynamic noenhanced font 'sans,11' background rgb 'white'\n",
      height);
  s += "set output " + gp_string(p.name + ".svg") + "\n";
  s += "set title " + gp_string(p.title) + "\n";
  s += "set xlabel " + gp_string(p.xlabel) + "\nset ylabel " + gp_string(p.ylabel) + "\n";
  s += "set grid\nset format x '%g'\nset format y '%g'\n";
  // Captions under the plot carry what the key leaves out (labels 100 on; the marks'
  // are 1 on).
  s += fmt::format("set bmargin {}\n", 4 + static_cast<int>(p.caption.size()));
  for (std::size_t i = 0; i < p.caption.size(); ++i) {
    s += fmt::format("set label {} {} at screen 0.01, screen {:.4f} left font ',9'\n", 100 + i,
                     gp_string(p.caption[i]),
                     (12.0 + 18.0 * static_cast<double>(p.caption.size() - 1 - i)) /
                         static_cast<double>(height));
  }
  if (p.heat) return s + heat_script(*p.heat);
  // A key beside the plot while its entries are short; below it, in two columns, when
  // they are long, so the plot keeps its width.
  std::size_t longest = 0;
  for (const Line& l : p.lines) longest = std::max(longest, l.title.size());
  s += longest <= 24 ? "set key outside right top vertical\n" : "set key above maxcols 2 width 2\n";
  // Points clear of the frame.
  s += "set autoscale fix\nset offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08\n";
  if (!p.xtics.empty()) {
    s += "set xtics (";
    for (std::size_t i = 0; i < p.xtics.size(); ++i) {
      s += fmt::format("{}{} {}", i ? ", " : "", gp_string(short_number(p.xtics[i])), p.xtics[i]);
    }
    s += ")\n";
  }
  if (p.logx) s += "set logscale x\n";
  if (p.logy) s += "set logscale y\n";
  const auto [lo, hi] = x_range(p);
  for (std::size_t i = 0; i < p.marks.size(); ++i) {
    const Mark& m = p.marks[i];
    // Labels in the right part of the range read leftwards, so they stay on the plot.
    const double at =
        p.logx && lo > 0 ? std::log(m.x / lo) / std::log(hi / lo) : (m.x - lo) / (hi - lo);
    const bool right = std::isfinite(at) && at > 0.6;
    s += fmt::format(
        "set arrow {} from {}, graph 0 to {}, graph 1 nohead dashtype 3 lc rgb '#777777'\n", i + 1,
        m.x, m.x);
    s += fmt::format(
        "set label {} {} at {}, graph {:.2f} {} offset {},0 font ',9' textcolor rgb '#444444'\n",
        i + 1, gp_string(m.label), m.x, 0.96 - 0.06 * static_cast<double>(i),
        right ? "right" : "left", right ? -0.5 : 0.5);
  }
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    s += fmt::format("$line{} << EOD\n", i);
    for (const Point& q : p.lines[i].points) {
      s += fmt::format("{} {} {} {}\n", q.x, q.y, q.low, q.high);
    }
    s += "EOD\n";
  }
  s += "plot ";
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    const Line& l = p.lines[i];
    s += fmt::format(
        "{}$line{} using 1:2:3:4 with yerrorlines lw 1.5 pt {} ps 0.8 dashtype {} lc rgb '{}' "
        "title {}",
        i ? ", \\\n     " : "", i, 4 + 2 * (i % 5), l.dashed ? 2 : 1,
        kColours[l.colour % std::size(kColours)], gp_string(l.title));
  }
  return s + "\n";
}

/// The swept textual (not numeric) parameters of a cell's kernel: what kind of map it is
/// ("map=rff").
std::string kernel_kind(const CellSummary& c, const std::vector<std::string>& swept) {
  std::string out;
  for (const auto& [column, value] : c.params) {
    double v = 0;
    if (column.rfind("kernel.", 0) != 0 || value.empty() || number(value, v) ||
        std::find(swept.begin(), swept.end(), column) == swept.end()) {
      continue;
    }
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", column.substr(7), value);
  }
  return out;
}

/// One solver variant in a cost plot: its runs' times at each x.
struct CostSeries {
  std::string base;  ///< its name in the key: form, solver, kind of map
  std::string form, solver;
  std::string kernel;   ///< the kernel and its kind of map: only lines of one kernel pair
  std::string varying;  ///< the solver's parameters its lines differ in, set by cost_lines
  SolverSide side;
  std::map<double, std::vector<const CellSummary*>> at;
};

/// The time of cells at one x: mean of the medians, bars from the fastest to the slowest
/// measurement.
Point cost_point(double x, const std::vector<const CellSummary*>& cells) {
  std::vector<double> medians;
  double low = INFINITY, high = 0;
  for (const CellSummary* c : cells) {
    const auto& t = c->values.find("time_seconds");
    if (t == c->values.end()) continue;
    medians.insert(medians.end(), t->second.begin(), t->second.end());
    for (const char* column : {"time_seconds_min", "time_seconds_max"}) {
      const auto it = c->values.find(column);
      if (it == c->values.end()) continue;
      for (double v : it->second) {
        low = std::min(low, v);
        high = std::max(high, v);
      }
    }
  }
  const double y = mean_std(medians).mean;
  return {x, y, std::isfinite(low) && low > 0 ? low : y, high > 0 ? high : y};
}

/// The lines of a cost plot, with the primal and dual solvers of a pair in one colour,
/// the crossovers of each pair marked and the details of each solver in the caption.
void cost_lines(const std::map<std::string, CostSeries>& all_series, std::size_t min_points,
                const char* axis, Plot& p) {
  // Lines of one solver that differ in its parameters are named by those in the key
  // ("primal primal_gd iterations=10"); the parameters they share go in the caption,
  // once per solver.
  std::map<std::string, std::map<std::string, std::set<std::string>>>
      values;  // solver → parameter → values
  for (const auto& [key, s] : all_series) {
    for (const auto& [name, value] : s.side.params) values[s.solver][name].insert(value);
  }
  std::map<std::string, CostSeries> series;
  std::map<std::string, std::string> shared;  // solver → its shared parameters
  for (const auto& [key, s] : all_series) {
    std::string varying, common;
    for (const auto& [name, value] : s.side.params) {
      std::string& into = values[s.solver][name].size() > 1 ? varying : common;
      into += fmt::format("{}{}={}", into.empty() ? "" : ", ", name, shown_value(value));
    }
    CostSeries named = s;
    named.varying = varying;
    series[varying.empty() ? s.base : s.base + " " + varying] = named;
    if (!common.empty()) shared[s.solver] = common;
  }
  for (const auto& [solver, common] : shared) p.caption.push_back(solver + ": " + common);
  std::vector<std::string> names;
  for (const auto& [name, s] : series) {
    if (s.at.size() >= min_points) names.push_back(name);
  }
  std::map<std::string, std::size_t> colour;
  std::size_t next = 0;
  std::map<std::string, std::vector<double>> xs, ys;
  for (const std::string& name : names) {
    const CostSeries& s = series.at(name);
    for (const auto& [x, cells] : s.at) {
      xs[name].push_back(x);
      ys[name].push_back(cost_point(x, cells).y);
    }
  }
  // Pairs first, so each shares one colour.
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& a : names) {
    const CostSeries& sa = series.at(a);
    if (sa.form != "primal") continue;
    for (const std::string& b : names) {
      const CostSeries& sb = series.at(b);
      if (sb.form != "dual" || sb.kernel != sa.kernel || !counterparts(sa.side, sb.side)) {
        continue;
      }
      pairs.emplace_back(a, b);
      if (!colour.count(a) && !colour.count(b)) colour[a] = colour[b] = next++;
      // Where they cross over the x both have (a run refused at one x leaves it out).
      std::vector<double> x, ya, yb;
      for (std::size_t i = 0; i < xs[a].size(); ++i) {
        const auto j = std::find(xs[b].begin(), xs[b].end(), xs[a][i]);
        if (j == xs[b].end()) continue;
        x.push_back(xs[a][i]);
        ya.push_back(ys[a][i]);
        yb.push_back(ys[b][static_cast<std::size_t>(j - xs[b].begin())]);
      }
      if (const auto at = crossover(x, ya, yb)) {
        p.marks.push_back({*at, fmt::format("crossover {} / {}{}{}: {} ≈ {}", sa.solver, sb.solver,
                                            sa.varying.empty() ? "" : " " + sa.varying,
                                            sa.kernel.empty() ? "" : " (" + sa.kernel + ")", axis,
                                            short_number(*at))});
      }
    }
  }
  for (const std::string& name : names) {
    const CostSeries& s = series.at(name);
    if (!colour.count(name)) colour[name] = next++;
    Line l;
    l.title = name;
    l.colour = colour[name];
    l.dashed = s.form == "dual";
    for (const auto& [x, cells] : s.at) l.points.push_back(cost_point(x, cells));
    p.lines.push_back(std::move(l));
  }
  if (!pairs.empty()) {
    p.caption.push_back(
        "A primal solver and its dual counterpart share a colour: primal solid, "
        "dual dashed. Bars: fastest to slowest measurement.");
  } else {
    p.caption.push_back("Bars: fastest to slowest measurement.");
  }
}

/// Cost against n: one plot per kernel variant (and value of the other swept dataset
/// parameters), one line per solver variant.
void cost_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                std::vector<Plot>& plots) {
  struct Group {
    std::string dataset;
    std::map<std::string, CostSeries> series;
    std::set<double> dims;  ///< D of the primal cells
  };
  std::map<std::string, Group> groups;  // plot → its lines
  for (const CellSummary& c : cells) {
    const double n = c.stat("n_train").mean, t = c.stat("time_seconds").mean;
    if (!(n > 0) || !(t > 0)) continue;
    std::string plot = c.kernel;
    for (const std::string& column : swept) {
      const auto it = c.params.find(column);
      if (column == "dataset.n" || column.rfind("solver.", 0) == 0 || it == c.params.end() ||
          it->second.empty()) {
        continue;
      }
      plot += fmt::format(" {}={}", column.substr(column.find('.') + 1), it->second);
    }
    Group& g = groups[plot];
    g.dataset = c.dataset;
    const std::string solver_params = c.params_of("solver");
    const std::string line =
        c.form + " " + c.solver + (solver_params.empty() ? "" : " (" + solver_params + ")");
    CostSeries& s = g.series[line];
    s.base = c.form + " " + c.solver;
    s.form = c.form;
    s.solver = c.solver;
    s.side = solver_side(c);
    s.at[n].push_back(&c);
    if (const double D = c.stat("feature_dim").mean; c.form == "primal" && D > 0) g.dims.insert(D);
  }
  for (const auto& [key, g] : groups) {
    Plot p;
    p.name = "cost_vs_n_" + slug(key);
    cost_lines(g.series, 2, "n", p);
    if (p.lines.empty()) continue;
    p.title = fmt::format("time against n: {} on {}", key, g.dataset);
    p.xlabel = "n (training points)";
    p.ylabel = "time: Gram or features + fit + predict (s)";
    p.logx = p.logy = true;
    const auto [lo, hi] = x_range(p);
    if (g.dims.size() == 1) {
      const double D = *g.dims.begin();
      if (D >= lo && D <= hi) {
        p.marks.push_back({D, fmt::format("n = D = {}", short_number(D))});
      } else {
        p.caption.push_back(fmt::format("The primal map's dimension D = {} is {} every n drawn.",
                                        short_number(D), D < lo ? "below" : "above"));
      }
    }
    plots.push_back(std::move(p));
  }
}

/// Cost against the feature dimension D when n is not swept: one plot per dataset variant,
/// one line per solver variant and kind of map, D of a dual cell taken from the primal
/// cells of its kernel variant; the crossovers of primal-dual counterparts and D = n marked.
void cost_vs_dim_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                       std::vector<Plot>& plots) {
  const auto kernel_key = [](const CellSummary& c) {
    return c.dataset + "|" + c.params_of("dataset") + "|" + c.kernel + "|" + c.params_of("kernel");
  };
  std::map<std::string, double> dims;  // kernel variant on a dataset variant → D
  for (const CellSummary& c : cells) {
    const double D = c.stat("feature_dim").mean;
    if (c.form == "primal" && D > 0) dims[kernel_key(c)] = D;
  }
  struct Group {
    std::string dataset, params;
    double n = 0;
    std::map<std::string, CostSeries> series;
  };
  std::map<std::string, Group> groups;  // dataset variant → its plot
  for (const CellSummary& c : cells) {
    const auto D = dims.find(kernel_key(c));
    if (D == dims.end() || !(c.stat("time_seconds").mean > 0)) continue;
    Group& g = groups[c.dataset + " " + c.params_of("dataset")];
    g.dataset = c.dataset;
    g.params = c.params_of("dataset", "dataset.n");
    g.n = c.stat("n_train").mean;
    // A line per solver and kind of map: Taylor and random features are not one curve.
    const std::string kind = kernel_kind(c, swept);
    const std::string kernel = c.kernel + (kind.empty() ? "" : " " + kind);
    const std::string base = c.form + " " + c.solver + " · " + kernel;
    const std::string solver_params = c.params_of("solver");
    CostSeries& s = g.series[base + (solver_params.empty() ? "" : " (" + solver_params + ")")];
    s.base = base;
    s.kernel = kernel;
    s.form = c.form;
    s.solver = c.solver;
    s.side = solver_side(c);
    s.at[D->second].push_back(&c);
  }
  for (const auto& [key, g] : groups) {
    Plot p;
    p.name = "cost_vs_D_" + slug(key);
    cost_lines(g.series, 3, "D", p);
    if (p.lines.empty()) continue;
    p.title = fmt::format("time against the feature dimension D: {}, n = {} training points",
                          g.dataset, short_number(g.n));
    if (!g.params.empty()) p.caption.insert(p.caption.begin(), g.dataset + ": " + g.params);
    p.xlabel = "D (feature dimension of the kernel's map)";
    p.ylabel = "time: Gram or features + fit + predict (s)";
    p.logx = p.logy = true;
    const auto [lo, hi] = x_range(p);
    if (g.n >= lo && g.n <= hi) {
      p.marks.insert(p.marks.begin(), {g.n, fmt::format("D = n = {}", short_number(g.n))});
    } else if (g.n > 0) {
      p.caption.push_back(fmt::format("n = {} is {} every D drawn.", short_number(g.n),
                                      g.n < lo ? "below" : "above"));
    }
    plots.push_back(std::move(p));
  }
}

bool is_seed(const std::string& column) {
  return column.size() >= 5 && column.compare(column.size() - 5, 5, ".seed") == 0;
}

/// Cells that differ only in a seed (random features drawn again) are one point of an
/// error plot: their runs pooled as repeats are, not a parameter to pick the best of.
/// `pooled` gets the ids of the cells that took another's runs.
std::vector<CellSummary> pool_seeds(const std::vector<CellSummary>& cells,
                                    std::set<std::string>& pooled_ids) {
  std::vector<CellSummary> out;
  std::map<std::string, std::size_t> index;
  for (const CellSummary& c : cells) {
    std::string key = c.dataset + "|" + c.kernel + "|" + c.solver + "|" + c.form;
    for (const auto& [column, value] : c.params) {
      if (!is_seed(column)) key += "|" + column + "=" + value;
    }
    const auto [it, fresh] = index.try_emplace(key, out.size());
    if (fresh) {
      out.push_back(c);
      for (auto p = out.back().params.begin(); p != out.back().params.end();) {
        p = is_seed(p->first) ? out.back().params.erase(p) : std::next(p);
      }
      continue;
    }
    CellSummary& pooled = out[it->second];
    pooled_ids.insert(pooled.cell);
    pooled.runs += c.runs;
    pooled.ok += c.ok;
    for (const auto& [column, values] : c.values) {
      auto& into = pooled.values[column];
      into.insert(into.end(), values.begin(), values.end());
    }
  }
  return out;
}

/// What the points and bars of an error plot are.
std::string bars_caption(const std::vector<const CellSummary*>& drawn, const ErrorMeasure& measure,
                         const std::set<std::string>& pooled_ids) {
  std::size_t runs = 0;
  bool pooled = false;
  for (const CellSummary* c : drawn) {
    runs = std::max(runs, c->stat(measure.column).count);
    pooled = pooled || pooled_ids.count(c->cell) > 0;
  }
  if (runs <= 1) return "Points: one run each, so no bars.";
  return fmt::format(
      "Points: mean over up to {} runs (the repeats{}); bars: ± one standard deviation.", runs,
      pooled ? ", and the seeds of random maps" : "");
}

/// The cells of one kernel, solver and form (and kind of map) on one dataset variant: the
/// unit an error plot draws as a line. A dataset's parameters are never chosen over.
struct ErrorGroup {
  std::string title;
  std::vector<const CellSummary*> cells;
  std::vector<std::string> swept;  ///< numeric parameters with two or more values here
};

/// The groups of `cells`; `drawn` is the dataset parameter a plot draws against (its
/// groups span its values), if it draws against one.
std::vector<ErrorGroup> error_groups(const std::vector<CellSummary>& cells,
                                     const std::vector<std::string>& swept,
                                     const std::string& drawn = {}) {
  std::map<std::string, ErrorGroup> groups;
  std::vector<std::string> order;
  for (const CellSummary& c : cells) {
    const std::string kind = kernel_kind(c, swept);
    std::string data;  // the dataset variant, by its swept parameters ("d=5")
    for (const std::string& column : swept) {
      const auto it = c.params.find(column);
      if (column.rfind("dataset.", 0) != 0 || column == drawn || it == c.params.end() ||
          it->second.empty()) {
        continue;
      }
      data += fmt::format(" {}={}", column.substr(8), shown_value(it->second));
    }
    const std::string title = c.kernel + (kind.empty() ? "" : " " + kind) + " · " + c.solver +
                              " (" + c.form + ")" + (data.empty() ? "" : " ·" + data);
    auto [it, fresh] = groups.try_emplace(title);
    if (fresh) order.push_back(title);
    it->second.title = title;
    it->second.cells.push_back(&c);
  }
  std::vector<ErrorGroup> out;
  for (const std::string& title : order) {
    ErrorGroup g = std::move(groups[title]);
    for (const std::string& column : swept) {
      if (is_seed(column)) continue;
      std::set<double> values;
      for (const CellSummary* c : g.cells) {
        double v = 0;
        const auto it = c->params.find(column);
        if (it != c->params.end() && number(it->second, v)) values.insert(v);
      }
      if (values.size() >= 2) g.swept.push_back(column);
    }
    out.push_back(std::move(g));
  }
  return out;
}

/// The best cell among `cells` at each key, where the key is what `key_of` returns
/// (nothing: the cell is left out): by the validation error when the run has one, as the
/// summary's best cell is chosen, else by the test error.
template <typename Key, typename KeyOf>
std::map<Key, const CellSummary*> best_by(const std::vector<const CellSummary*>& cells,
                                          const ErrorMeasure& measure, KeyOf key_of) {
  std::map<Key, const CellSummary*> best;
  for (const CellSummary* c : cells) {
    const std::optional<Key> key = key_of(*c);
    const double e = c->stat(measure.selection).mean;
    if (!key || !std::isfinite(e) || !std::isfinite(c->stat(measure.column).mean)) continue;
    auto [it, fresh] = best.try_emplace(*key, c);
    const double held = it->second->stat(measure.selection).mean;
    if (!fresh && (measure.lower_is_better ? e < held : e > held)) it->second = c;
  }
  return best;
}

std::optional<double> value_of(const CellSummary& c, const std::string& column) {
  double v = 0;
  const auto it = c.params.find(column);
  if (it == c.params.end() || !number(it->second, v)) return std::nullopt;
  return v;
}

/// A point of an error plot: the mean over repeats, bars ± one standard deviation
/// (error_axes cuts them on a log axis).
Point error_point(double x, const CellSummary& c, const ErrorMeasure& measure) {
  const MeanStd e = c.stat(measure.column);
  return {x, e.mean, e.mean - e.std, e.mean + e.std};
}

/// A point of the validation error: its mean over repeats, bars ± the standard deviation
/// over the folds (their mean over repeats); no bars for a single held-out part.
Point validation_point(double x, const CellSummary& c, const ErrorMeasure& measure) {
  const double e = c.stat(measure.selection).mean;
  const MeanStd spread = c.stat(measure.selection + "_std");
  const double s = std::isfinite(spread.mean) ? spread.mean : 0;
  return {x, e, e - s, e + s};
}

bool log_axis(const std::string& column, const std::vector<const CellSummary*>& cells,
              const std::set<std::string>& log_scale) {
  if (log_scale.count(column)) {
    return std::all_of(cells.begin(), cells.end(), [&](const CellSummary* c) {
      const auto v = value_of(*c, column);
      return !v || *v > 0;
    });
  }
  std::vector<double> values;
  for (const CellSummary* c : cells) {
    if (const auto v = value_of(*c, column)) values.push_back(*v);
  }
  return geometric_values(values);
}

/// Log axes where they help: x for a log-scale parameter, y when the error spans a
/// factor of 10 or more; ticks at the values drawn when a log x has few of them.
void error_axes(const std::string& column, const std::vector<const CellSummary*>& drawn,
                const std::set<std::string>& log_scale, Plot& p) {
  p.logx = log_axis(column, drawn, log_scale);
  double lo = INFINITY, hi = 0;
  std::set<double> xs;
  for (const Line& l : p.lines) {
    for (const Point& q : l.points) {
      lo = std::min(lo, q.y);
      hi = std::max(hi, q.y);
      xs.insert(q.x);
    }
  }
  p.logy = lo > 0 && hi / lo >= 10;
  if (p.logx && xs.size() <= 12) p.xtics.assign(xs.begin(), xs.end());
  // A log axis has no room for a bar below zero: such a bar ends at a tenth of its point.
  bool cut = false;
  for (Line& l : p.lines) {
    for (Point& q : l.points) {
      if (p.logy && q.low < q.y / 10) {
        q.low = q.y / 10;
        cut = true;
      }
    }
  }
  if (cut)
    p.caption.push_back("On the log axis, a bar reaching below a tenth of its point ends there.");
}

std::string other_columns(const ErrorGroup& g, const std::vector<std::string>& drawn) {
  std::string out;
  for (const std::string& column : g.swept) {
    if (std::find(drawn.begin(), drawn.end(), column) != drawn.end()) continue;
    out += (out.empty() ? "" : ", ") + column;
  }
  return out;
}

/// Test error against each swept parameter: one line per kernel, solver and form that
/// sweeps it, the best cell over its other swept parameters at each value.
/// The most lines an error plot draws, and the most heat maps a report draws: past them
/// a plot would not read, and the report says what it left out.
constexpr std::size_t kMaxErrorLines = 8;
constexpr std::size_t kMaxHeatMaps = 12;

/// The cells the error plots draw: seeds pooled (pool_seeds), once for all of them.
struct ErrorCells {
  std::set<std::string> pooled;  ///< ids of the cells that took another's runs
  std::vector<CellSummary> cells;
  ErrorMeasure measure;

  explicit ErrorCells(const std::vector<CellSummary>& all)
      : cells(pool_seeds(all, pooled)), measure(error_measure(cells)) {}
};

void error_plots(const ErrorCells& in, const std::vector<std::string>& swept,
                 const std::set<std::string>& log_scale, std::vector<Plot>& plots,
                 std::vector<std::string>& not_drawn) {
  const std::vector<CellSummary>& cells = in.cells;
  const std::set<std::string>& pooled = in.pooled;
  const ErrorMeasure& measure = in.measure;
  const char* best_word = measure.lower_is_better ? "lowest" : "highest";
  for (const std::string& column : swept) {
    const std::vector<ErrorGroup> groups = error_groups(cells, swept, column);
    Plot p;
    std::vector<const CellSummary*> drawn;
    std::vector<std::pair<std::string, std::string>> over;  // line → the columns it is best over
    for (const ErrorGroup& g : groups) {
      if (std::find(g.swept.begin(), g.swept.end(), column) == g.swept.end()) continue;
      const auto best = best_by<double>(g.cells, measure,
                                        [&](const CellSummary& c) { return value_of(c, column); });
      if (best.size() < 2) continue;
      Line l;
      l.title = g.title;
      l.colour = p.lines.size() / (measure.validated() ? 2 : 1);
      Line v = l;  // the validation error, dashed in the same colour
      v.title = "  validation";
      v.dashed = true;
      for (const auto& [x, c] : best) {
        l.points.push_back(error_point(x, *c, measure));
        v.points.push_back(validation_point(x, *c, measure));
        drawn.push_back(c);
      }
      p.lines.push_back(std::move(l));
      if (measure.validated()) p.lines.push_back(std::move(v));
      over.emplace_back(g.title, other_columns(g, {column}));
    }
    if (p.lines.empty()) continue;
    if (over.size() > kMaxErrorLines) {
      not_drawn.push_back(fmt::format(
          "{} against {} is not drawn: its {} lines (one per kernel, solver and form on each "
          "dataset variant) would not read; the table of cells has every value.",
          measure.column, column, over.size()));
      continue;
    }
    // What each point is the best over: once when every line shares it.
    const bool shared = std::all_of(over.begin(), over.end(),
                                    [&](const auto& o) { return o.second == over.front().second; });
    for (const auto& [title, columns] : over) {
      if (columns.empty()) continue;
      p.caption.push_back(shared ? fmt::format("Each point: the cell with the {} {} over {}.",
                                               best_word, measure.selection, columns)
                                 : fmt::format("{}: the cell with the {} {} over {} at each value.",
                                               title, best_word, measure.selection, columns));
      if (shared) break;
    }
    p.name = measure.column + "_vs_" + slug(column);
    p.title = fmt::format("{} against {}", measure.column, column);
    p.xlabel = column;
    p.ylabel = measure.validated() ? measure.column + " (dashed: " + measure.selection + ")"
                                   : measure.column;
    error_axes(column, drawn, log_scale, p);
    p.caption.push_back(bars_caption(drawn, measure, pooled));
    if (measure.validated()) {
      // Folds give a spread; one held-out part (validation_fraction) does not.
      const bool folds = std::any_of(drawn.begin(), drawn.end(), [&](const CellSummary* c) {
        return c->stat(measure.selection + "_std").count > 0;
      });
      p.caption.push_back(fmt::format(
          "Dashed: {} on the training part{}.", measure.selection,
          folds ? ", bars ± one standard deviation over the folds" : " (one held-out part)"));
    }
    plots.push_back(std::move(p));
  }
}

/// For each kernel, solver and form that sweeps two numeric parameters together: a heat
/// map of the error over both, and the error against the first with one line per value
/// of the second. Up to three pairs of parameters each.
void interaction_plots(const ErrorCells& in, const std::vector<std::string>& swept,
                       const std::set<std::string>& log_scale, std::vector<Plot>& plots,
                       std::vector<std::string>& not_drawn) {
  std::size_t heat_maps = 0, left_out = 0;
  const std::vector<CellSummary>& cells = in.cells;
  const std::set<std::string>& pooled = in.pooled;
  const ErrorMeasure& measure = in.measure;
  const char* best_word = measure.lower_is_better ? "lowest" : "highest";
  // The model's hyperparameters on each dataset variant: σ against λ, not n against d.
  for (ErrorGroup& g : error_groups(cells, swept)) {
    g.swept.erase(std::remove_if(g.swept.begin(), g.swept.end(),
                                 [](const std::string& c) { return c.rfind("dataset.", 0) == 0; }),
                  g.swept.end());
    std::size_t drawn_pairs = 0;
    for (std::size_t a = 0; a < g.swept.size() && drawn_pairs < 3; ++a) {
      for (std::size_t b = a + 1; b < g.swept.size() && drawn_pairs < 3; ++b) {
        const std::string& x = g.swept[a];
        const std::string& y = g.swept[b];
        const auto best = best_by<std::pair<double, double>>(
            g.cells, measure,
            [&](const CellSummary& c) -> std::optional<std::pair<double, double>> {
              const auto vx = value_of(c, x), vy = value_of(c, y);
              if (!vx || !vy) return std::nullopt;
              return std::make_pair(*vx, *vy);
            });
        std::set<double> xs, ys;
        for (const auto& [key, c] : best) {
          xs.insert(key.first);
          ys.insert(key.second);
        }
        if (xs.size() < 2 || ys.size() < 2) continue;
        ++drawn_pairs;
        if (++heat_maps > kMaxHeatMaps) {
          ++left_out;
          continue;
        }
        const std::string o = other_columns(g, {x, y});
        const std::string over = o.empty()
                                     ? ""
                                     : fmt::format("Each value: the cell with the {} {} over {}.",
                                                   best_word, measure.selection, o);
        const std::string stem = slug(g.title) + "_" + slug(x) + "_" + slug(y);

        // The error the parameters are chosen on: the validation error when there is one.
        const std::string& shown = measure.selection;
        Plot heat;
        heat.name = shown + "_heat_" + stem;
        heat.title = fmt::format("{}: {} over {} and {}", g.title, shown, x, y);
        heat.xlabel = x;
        heat.ylabel = y;
        Heat h;
        h.xs.assign(xs.begin(), xs.end());
        h.ys.assign(ys.begin(), ys.end());
        h.zlabel = shown + " (mean over repeats)";
        double lo = INFINITY, hi = 0;
        for (const auto& [key, c] : best) {
          const auto i = static_cast<std::size_t>(
              std::lower_bound(h.xs.begin(), h.xs.end(), key.first) - h.xs.begin());
          const auto j = static_cast<std::size_t>(
              std::lower_bound(h.ys.begin(), h.ys.end(), key.second) - h.ys.begin());
          const double e = c->stat(shown).mean;
          h.z[{i, j}] = e;
          lo = std::min(lo, e);
          hi = std::max(hi, e);
        }
        h.logz = lo > 0 && hi / lo >= 10;
        heat.heat = std::move(h);
        if (!over.empty()) heat.caption.push_back(over);
        heat.caption.push_back("An empty square: no cell there finished with a finite error.");

        Plot lines;
        lines.name = measure.column + "_vs_" + slug(x) + "_by_" + slug(y) + "_" + slug(g.title);
        lines.title =
            fmt::format("{}: {} against {}, a line per {}", g.title, measure.column, x, y);
        lines.xlabel = x;
        lines.ylabel = measure.column;
        std::vector<const CellSummary*> drawn;
        for (const double vy : ys) {
          Line l;
          l.title = fmt::format("{} = {}", y.substr(y.find('.') + 1), short_number(vy));
          l.colour = lines.lines.size();
          for (const auto& [key, c] : best) {
            if (key.second != vy) continue;
            l.points.push_back(error_point(key.first, *c, measure));
            drawn.push_back(c);
          }
          if (!l.points.empty()) lines.lines.push_back(std::move(l));
        }
        error_axes(x, drawn, log_scale, lines);
        if (!over.empty()) lines.caption.push_back(over);
        lines.caption.push_back(bars_caption(drawn, measure, pooled));
        plots.push_back(std::move(heat));
        // A line per value reads for a few values; the heat map shows any number.
        if (lines.lines.size() <= kMaxErrorLines) plots.push_back(std::move(lines));
      }
    }
  }
  if (left_out > 0) {
    not_drawn.push_back(fmt::format(
        "{} heat maps (and their line plots) of two hyperparameters are drawn; {} more, one per "
        "kernel, solver and dataset variant, are not.",
        kMaxHeatMaps, left_out));
  }
}

/// Whether a file name (without extension) is one the report draws (the names given in
/// cost_plots, cost_vs_dim_plots, error_plots and interaction_plots).
bool is_report_plot(const std::string& stem) {
  for (const char* prefix :
       {"cost_vs_n_", "cost_vs_D_", "test_rmse_vs_", "test_accuracy_vs_", "test_rmse_heat_",
        "test_accuracy_heat_", "validation_rmse_heat_", "validation_accuracy_heat_"}) {
    if (stem.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

}  // namespace

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

std::set<std::string> log_scale_columns(const fs::path& manifest_file) {
  std::set<std::string> out;
  const StoredManifest m = read_manifest(manifest_file);
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

std::string gnuplot_program() {
  const char* env = std::getenv("KEXP_GNUPLOT");
  return env != nullptr && *env != '\0' ? env : "gnuplot";
}

PlotResult write_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                       const fs::path& folder, const std::set<std::string>& log_scale) {
  PlotResult result;
  std::vector<Plot> plots;
  cost_plots(cells, swept, plots);
  if (std::find(swept.begin(), swept.end(), "dataset.n") == swept.end()) {
    cost_vs_dim_plots(cells, swept, plots);
  }
  const ErrorCells error_cells(cells);
  error_plots(error_cells, swept, log_scale, plots, result.not_drawn);
  interaction_plots(error_cells, swept, log_scale, plots, result.not_drawn);
  if (plots.empty()) return result;
  const std::string program = gnuplot_program();
  const int probe = std::system((shell_quote(program) + " -V > /dev/null 2>&1").c_str());
  if (probe == -1 || !WIFEXITED(probe) || WEXITSTATUS(probe) != 0) {
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
    if ((ext == ".gp" || ext == ".svg") && is_report_plot(entry.path().stem().string())) {
      fs::remove(entry.path(), ec);
    }
  }
  for (const Plot& p : plots) {
    write_file_atomically(dir / (p.name + ".gp"), script(p));
    const std::string command =
        fmt::format("cd {} && {} {} > /dev/null 2>&1", shell_quote(dir.string()),
                    shell_quote(program), shell_quote(p.name + ".gp"));
    const int status = std::system(command.c_str());
    if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        fs::exists(dir / (p.name + ".svg"))) {
      result.files.push_back("plots/" + p.name + ".svg");
    } else {
      result.failed.push_back("plots/" + p.name + ".gp");
    }
  }
  return result;
}

}  // namespace kexp::core
