#include "reporting/plots.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

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

/// A file-name-safe form of a text.
std::string slug(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-';
    out += keep ? c : '_';
  }
  return out.size() > 80 ? out.substr(0, 80) : out;
}

bool number(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

struct Line {
  std::string title;
  std::vector<std::pair<double, double>> points;  ///< sorted by x
};

struct Plot {
  std::string name, title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<Line> lines;
  std::vector<std::pair<double, std::string>> marks;  ///< vertical lines at x, labelled
};

std::string script(const Plot& p) {
  std::string s =
      "# kexp plot; run `gnuplot " + p.name + ".gp` here to redraw " + p.name + ".svg\n";
  s += "set terminal svg size 860,520 dynamic noenhanced font 'sans,11'\n";
  s += "set output " + gp_string(p.name + ".svg") + "\n";
  s += "set title " + gp_string(p.title) + "\n";
  s += "set xlabel " + gp_string(p.xlabel) + "\nset ylabel " + gp_string(p.ylabel) + "\n";
  s += "set key below\nset grid\nset format x '%g'\nset format y '%g'\n";
  if (p.logx) s += "set logscale x\n";
  if (p.logy) s += "set logscale y\n";
  for (std::size_t i = 0; i < p.marks.size(); ++i) {
    s += fmt::format(
        "set arrow {} from {}, graph 0 to {}, graph 1 nohead dashtype 2 lc rgb '#888888'\n", i + 1,
        p.marks[i].first, p.marks[i].first);
    s += fmt::format("set label {} {} at {}, graph {} left offset 0.5,0 textcolor rgb '#555555'\n",
                     i + 1, gp_string(p.marks[i].second), p.marks[i].first,
                     0.95 - 0.06 * static_cast<double>(i));
  }
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    s += fmt::format("$line{} << EOD\n", i);
    for (const auto& [x, y] : p.lines[i].points) s += fmt::format("{} {}\n", x, y);
    s += "EOD\n";
  }
  s += "plot ";
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    s += fmt::format("{}$line{} using 1:2 with linespoints title {}", i ? ", \\\n     " : "", i,
                     gp_string(p.lines[i].title));
  }
  return s + "\n";
}

/// Cost against n: one plot per dataset (other than n) and kernel variant, one line per
/// solver variant, crossovers of primal-dual counterparts marked.
void cost_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                std::vector<Plot>& plots) {
  struct Series {
    std::string form;
    std::map<std::string, std::string> solver_params;
    std::map<double, std::vector<double>> by_n;
  };
  std::map<std::string, std::map<std::string, Series>> groups;  // plot → line → series
  for (const CellSummary& c : cells) {
    const double n = c.stat("n_train").mean, t = c.stat("time_seconds").mean;
    if (!(n > 0) || !(t > 0)) continue;
    // One plot per kernel variant and per value of the other swept dataset parameters.
    std::string plot = c.kernel;
    for (const std::string& column : swept) {
      const auto it = c.params.find(column);
      if (column == "dataset.n" || column.rfind("solver.", 0) == 0 || it == c.params.end() ||
          it->second.empty()) {
        continue;
      }
      plot += fmt::format(" {}={}", column.substr(column.find('.') + 1), it->second);
    }
    const std::string line =
        c.form + " " + c.solver +
        (c.params_of("solver").empty() ? "" : "(" + c.params_of("solver") + ")");
    Series& s = groups[plot][line];
    s.form = c.form;
    for (const auto& [column, value] : c.params) {
      if (column.rfind("solver.", 0) == 0 && !value.empty())
        s.solver_params[column.substr(7)] = value;
    }
    s.by_n[n].push_back(t);
  }
  for (const auto& [title, lines] : groups) {
    Plot p;
    p.name = "cost_vs_n_" + slug(title);
    p.title = "time against n: " + title + " (" + cells.front().dataset + ")";
    p.xlabel = "n (training points)";
    p.ylabel = "time: Gram or features + fit + predict (s)";
    p.logx = p.logy = true;
    std::map<std::string, std::vector<double>> xs, ys;
    for (const auto& [name, s] : lines) {
      if (s.by_n.size() < 2) continue;
      Line l;
      l.title = name;
      for (const auto& [n, ts] : s.by_n) {
        l.points.emplace_back(n, mean_std(ts).mean);
        xs[name].push_back(n);
        ys[name].push_back(mean_std(ts).mean);
      }
      p.lines.push_back(std::move(l));
    }
    if (p.lines.empty()) continue;
    for (const auto& [a, sa] : lines) {
      if (sa.form != "primal" || xs[a].empty()) continue;
      for (const auto& [b, sb] : lines) {
        if (sb.form != "dual" || xs[b] != xs[a]) continue;
        if (!counterparts(SolverSide{sa.form, sa.solver_params},
                          SolverSide{sb.form, sb.solver_params}))
          continue;
        if (const auto x = crossover(xs[a], ys[a], ys[b])) {
          p.marks.emplace_back(*x, fmt::format("crossover n ≈ {:.3g}", *x));
        }
      }
    }
    plots.push_back(std::move(p));
  }
}

/// Cost against the feature dimension D when n is not swept: one plot per dataset variant,
/// one line per solver variant, D of a dual cell taken from the primal cells of its kernel
/// variant; the crossovers of primal-dual counterparts and D = n marked.
void cost_vs_dim_plots(const std::vector<CellSummary>& cells, std::vector<Plot>& plots) {
  const auto kernel_key = [](const CellSummary& c) {
    return c.dataset + "|" + c.params_of("dataset") + "|" + c.kernel + "|" + c.params_of("kernel");
  };
  std::map<std::string, double> dims;  // kernel variant on a dataset variant → D
  for (const CellSummary& c : cells) {
    const double D = c.stat("feature_dim").mean;
    if (c.form == "primal" && D > 0) dims[kernel_key(c)] = D;
  }
  struct Series {
    std::string form;
    std::map<std::string, std::string> solver_params;
    std::map<double, std::vector<double>> by_dim;
  };
  struct Group {
    std::string title;
    double n = 0;
    std::map<std::string, Series> lines;
  };
  std::map<std::string, Group> groups;  // dataset variant → its plot
  for (const CellSummary& c : cells) {
    const auto D = dims.find(kernel_key(c));
    const double t = c.stat("time_seconds").mean;
    if (D == dims.end() || !(t > 0)) continue;
    Group& g = groups[c.dataset + "|" + c.params_of("dataset")];
    g.title = c.dataset + (c.params_of("dataset").empty() ? "" : " " + c.params_of("dataset"));
    g.n = c.stat("n_train").mean;
    const std::string line =
        c.form + " " + c.solver +
        (c.params_of("solver").empty() ? "" : "(" + c.params_of("solver") + ")");
    Series& s = g.lines[line];
    s.form = c.form;
    for (const auto& [column, value] : c.params) {
      if (column.rfind("solver.", 0) == 0 && !value.empty())
        s.solver_params[column.substr(7)] = value;
    }
    s.by_dim[D->second].push_back(t);
  }
  for (const auto& [key, g] : groups) {
    Plot p;
    p.name = "cost_vs_D_" + slug(g.title);
    p.title = "time against the feature dimension D: " + g.title;
    p.xlabel = "D (feature dimension of the kernel's map)";
    p.ylabel = "time: Gram or features + fit + predict (s)";
    p.logx = p.logy = true;
    std::map<std::string, std::vector<double>> xs, ys;
    for (const auto& [name, s] : g.lines) {
      if (s.by_dim.size() < 3) continue;
      Line l;
      l.title = name;
      for (const auto& [D, ts] : s.by_dim) {
        l.points.emplace_back(D, mean_std(ts).mean);
        xs[name].push_back(D);
        ys[name].push_back(mean_std(ts).mean);
      }
      p.lines.push_back(std::move(l));
    }
    if (p.lines.empty()) continue;
    if (g.n > 0) p.marks.emplace_back(g.n, fmt::format("D = n = {:.4g}", g.n));
    for (const auto& [a, sa] : g.lines) {
      if (sa.form != "primal" || xs[a].empty()) continue;
      for (const auto& [b, sb] : g.lines) {
        if (sb.form != "dual" || xs[b] != xs[a]) continue;
        if (!counterparts(SolverSide{sa.form, sa.solver_params},
                          SolverSide{sb.form, sb.solver_params}))
          continue;
        if (const auto x = crossover(xs[a], ys[a], ys[b])) {
          p.marks.emplace_back(*x, fmt::format("crossover D ≈ {:.4g}", *x));
        }
      }
    }
    plots.push_back(std::move(p));
  }
}

/// Test error against each swept parameter: for each kernel and solver, the best error
/// over the other swept parameters at each value.
void error_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                 std::vector<Plot>& plots) {
  const ErrorMeasure measure = error_measure(cells);
  for (const std::string& column : swept) {
    std::map<std::string, std::map<double, double>> best;  // line → x → best error
    bool numeric = true;
    for (const CellSummary& c : cells) {
      const auto it = c.params.find(column);
      if (it == c.params.end() || it->second.empty()) continue;
      double x = 0;
      if (!number(it->second, x)) {
        numeric = false;
        break;
      }
      const double e = c.stat(measure.column).mean;
      if (!std::isfinite(e)) continue;
      const std::string line = c.kernel + " + " + c.solver + " (" + c.form + ")";
      auto& slot = best[line];
      const auto found = slot.find(x);
      if (found == slot.end() ||
          (measure.lower_is_better ? e < found->second : e > found->second)) {
        slot[x] = e;
      }
    }
    if (!numeric || best.empty()) continue;
    Plot p;
    p.name = measure.column + "_vs_" + slug(column);
    p.title = fmt::format("{} against {} ({} over the other swept parameters)", measure.column,
                          column, measure.lower_is_better ? "lowest" : "highest");
    p.xlabel = column;
    p.ylabel = measure.column;
    double lo = INFINITY, hi = 0;
    for (const auto& [name, points] : best) {
      Line l;
      l.title = name;
      for (const auto& [x, e] : points) {
        l.points.emplace_back(x, e);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
      p.lines.push_back(std::move(l));
    }
    p.logx = lo > 0 && hi / lo >= 50;
    p.logy = measure.lower_is_better;
    plots.push_back(std::move(p));
  }
}

/// Whether a file name (without extension) is one the report draws: cost against n or D,
/// an error against a parameter (the names given in cost_plots, cost_vs_dim_plots and
/// error_plots).
bool is_report_plot(const std::string& stem) {
  for (const char* prefix : {"cost_vs_n_", "cost_vs_D_", "test_rmse_vs_", "test_accuracy_vs_"}) {
    if (stem.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

}  // namespace

std::string gnuplot_program() {
  const char* env = std::getenv("KEXP_GNUPLOT");
  return env != nullptr && *env != '\0' ? env : "gnuplot";
}

PlotResult write_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                       const fs::path& folder) {
  PlotResult result;
  std::vector<Plot> plots;
  cost_plots(cells, swept, plots);
  if (std::find(swept.begin(), swept.end(), "dataset.n") == swept.end()) {
    cost_vs_dim_plots(cells, plots);
  }
  error_plots(cells, swept, plots);
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
