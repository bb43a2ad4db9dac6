// What a plot is, as gnuplot draws it (lines with bars, marks, captions, a heat map), its
// script, and running gnuplot on that script. Private to reporting/: the plot families
// (plots_*.cpp) fill a Plot, write_plots (plots.cpp) writes and runs it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kexp::core::plot {

struct Point {
  double x = 0, y = 0, low = 0, high = 0;  ///< the bar spans [low, high]
};

struct Line {
  std::string title;          ///< its entry in the key; empty: none
  std::vector<Point> points;  ///< sorted by x
  std::size_t colour = 0;
  bool dashed = false;
};

/// A vertical line at x with its label: at the top of the plot, or beside the point
/// (x, y) it marks when it has one (a crossover, on the lines that cross).
struct Mark {
  double x = 0;
  std::string label;
  std::optional<double> y;
};

/// The error over a grid of two parameters, drawn as an image with one tick per value.
struct Heat {
  std::vector<double> xs, ys;
  std::map<std::pair<std::size_t, std::size_t>, double> z;  ///< (x index, y index) → error
  std::string zlabel;
  bool logz = false;
  std::optional<std::pair<std::size_t, std::size_t>> best;  ///< framed: the best square
};

struct Plot {
  std::string name, title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<Line> lines;
  std::vector<Mark> marks;
  std::vector<std::string> caption;
  std::optional<Heat> heat;
  std::vector<double> xtics;  ///< ticks at these values; empty: gnuplot's own
  /// Set on a plot no finding of the summary rests on, saying what kind of detail it is
  /// ("heat maps of groups that hold no solver's best cell"): drawn only when every plot
  /// is asked for (PlotSelection::all, plots.hpp).
  const char* detail = nullptr;
};

/// The smallest and largest x of a plot's lines (each sorted by x).
std::pair<double, double> x_range(const Plot& p);

/// A number for a label or a tick: 3 significant digits, without an exponent from 1000
/// to 10⁷ ("1230", not "1.23e+03").
std::string short_number(double v);

/// A file-name-safe form of a text: runs of other characters become one '_'. A form
/// longer than 80 characters keeps its whole leading words up to 70 and ends with a
/// hash of the whole text, so that a name is never cut inside a value and stays unique.
std::string slug(const std::string& s);

/// Texts in natural order: runs of digits (with a sign, decimals and an exponent) compare
/// as numbers, so that "λ=1e-06" < "λ=0.0001" < "λ=0.01" < "λ=1".
bool natural_less(const std::string& a, const std::string& b);

/// A gnuplot string literal: in single quotes, each quote doubled.
std::string gp_string(const std::string& s);

/// The gnuplot script that draws `p` into `<name>.svg` beside it, its data inline.
std::string script(const Plot& p);

/// The gnuplot program: $KEXP_GNUPLOT, else `gnuplot` on the PATH.
std::string gnuplot_program();

/// Whether `program` runs (`program -V` exits 0); asked once per program and process.
bool gnuplot_runs(const std::string& program);

/// Runs `program` on `dir/<name>.gp` in `dir`; whether it exited 0 and `<name>.svg` is
/// there.
bool draw(const std::string& program, const std::filesystem::path& dir, const std::string& name);

}  // namespace kexp::core::plot
