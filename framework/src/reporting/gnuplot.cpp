// gnuplot's side of the plots: the script of a Plot (terminal, labels, captions under the
// plot, marks, the data of each line or of a heat map inline, Okabe–Ito colours), the
// quoting of texts for gnuplot and for the shell, and running gnuplot on a script. It
// knows nothing of results: the plot families decide what a Plot holds.
#include "reporting/gnuplot.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>

#include "util/seed.hpp"

namespace kexp::core::plot {

namespace fs = std::filesystem;

std::string gp_string(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Colours that stay apart in print and for the common colour blindnesses (Okabe–Ito).
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#F0E442"};

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
  if (h.best) {
    const auto [bi, bj] = *h.best;
    s += fmt::format(
        "set object 1 rect from {0}-0.5, {1}-0.5 to {0}+0.5, {1}+0.5 front fillstyle empty "
        "border lc rgb '#D55E00' lw 4\n",
        bi, bj);
  }
  s += "plot $heat using 1:2:3 with image pixels notitle, \\\n"
       "     $heat using 1:2:(sprintf('%.3g', $3)) with labels notitle textcolor rgb '#000000'\n";
  return s;
}

bool exited_zero(int status) {
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

std::pair<double, double> x_range(const Plot& p) {
  double lo = INFINITY, hi = -INFINITY;
  for (const Line& l : p.lines) {
    lo = std::min(lo, l.points.front().x);
    hi = std::max(hi, l.points.back().x);
  }
  return {lo, hi};
}

std::string short_number(double v) {
  std::string s = fmt::format("{:.3g}", v);
  if (std::abs(v) < 1000 || std::abs(v) >= 1e7) return s;
  return fmt::format("{:.0f}", std::stod(s));
}

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
  if (out.size() <= 80) return out;
  // Whole words only, then the hash that keeps two long names apart.
  std::size_t cut = out.rfind('_', 70);
  if (cut == std::string::npos || cut == 0) cut = 70;
  return fmt::format("{}_{:08x}", out.substr(0, cut),
                     static_cast<std::uint32_t>(fnv1a(s) & 0xffffffffU));
}

namespace {

/// The number that starts at s[i], when one does: a digit, or a sign or point before a
/// digit that does not continue a word.
std::optional<double> number_at(const std::string& s, std::size_t i, std::size_t& end) {
  const auto digit = [&](std::size_t k) {
    return k < s.size() && std::isdigit(static_cast<unsigned char>(s[k])) != 0;
  };
  const bool after_word = i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1])) != 0;
  const bool starts = digit(i) || ((s[i] == '-' || s[i] == '+' || s[i] == '.') && !after_word &&
                                   (digit(i + 1) || (s[i + 1] == '.' && digit(i + 2))));
  if (!starts) return std::nullopt;
  char* stop = nullptr;
  const double v = std::strtod(s.c_str() + i, &stop);
  end = static_cast<std::size_t>(stop - s.c_str());
  return end > i ? std::optional<double>(v) : std::nullopt;
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    std::size_t ei = i, ej = j;
    const auto x = number_at(a, i, ei), y = number_at(b, j, ej);
    if (x && y) {
      if (*x != *y) return *x < *y;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

namespace {

/// A caption in lines of at most `width` characters, broken between words.
std::vector<std::string> wrapped(const std::vector<std::string>& caption, std::size_t width) {
  std::vector<std::string> lines;
  for (const std::string& text : caption) {
    std::string line;
    std::size_t chars = 0;  // characters, not bytes: σ and λ are one each
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string::npos) end = text.size();
      const std::string word = text.substr(start, end - start);
      const auto length =
          static_cast<std::size_t>(std::count_if(word.begin(), word.end(), [](char c) {
            return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
          }));
      if (!line.empty() && chars + 1 + length > width) {
        lines.push_back(line);
        line.clear();
        chars = 0;
      }
      line += (line.empty() ? "" : " ") + word;
      chars += (chars == 0 ? 0 : 1) + length;
      start = end + 1;
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace

std::string script(const Plot& p) {
  // 12-point captions fit about 140 characters across the canvas.
  const std::vector<std::string> caption = wrapped(p.caption, 130);
  // A key beside the plot while its entries are short; above it, in two columns where
  // they fit, when they are long, so the plot keeps its width; the canvas grows by the
  // key's rows so the plot keeps its height. A line without a title has no entry.
  std::size_t longest = 0, entries = 0;
  for (const Line& l : p.lines) {
    longest = std::max(longest, l.title.size());
    entries += l.title.empty() ? 0 : 1;
  }
  const bool beside = longest <= 24;
  const std::size_t key_columns = 9 * longest + 100 <= 490 ? 2 : 1;
  const std::size_t key_rows = p.heat || beside ? 0 : (entries + key_columns - 1) / key_columns;
  // Sized for a slide: 15-point text on a 1000-pixel canvas, captions at 12.
  const std::size_t height = 620 + 22 * caption.size() + 27 * key_rows;
  std::string s =
      "# kexp plot; run `gnuplot " + p.name + ".gp` here to redraw " + p.name + ".svg\n";
  s += fmt::format(
      "set terminal svg size 1000,{} dynamic noenhanced font 'sans,15' background rgb 'white'\n",
      height);
  s += "set output " + gp_string(p.name + ".svg") + "\n";
  s += "set title " + gp_string(p.title) + "\n";
  s += "set xlabel " + gp_string(p.xlabel) + "\nset ylabel " + gp_string(p.ylabel) + "\n";
  s += "set grid\nset format x '%g'\nset format y '%g'\n";
  // Captions under the plot carry what the key leaves out (labels 100 on; the marks'
  // are 1 on).
  s += fmt::format("set bmargin {}\n", 4 + static_cast<int>(caption.size()));
  for (std::size_t i = 0; i < caption.size(); ++i) {
    s += fmt::format(
        "set label {} {} at screen 0.01, screen {:.4f} left font ',12'\n", 100 + i,
        gp_string(caption[i]),
        (14.0 + 22.0 * static_cast<double>(caption.size() - 1 - i)) / static_cast<double>(height));
  }
  if (p.heat) return s + heat_script(*p.heat);
  // Past 60 characters an entry at 15 points is wider than gnuplot lets a key be, and it
  // would leave the key out: such entries are set at 12.
  s += beside          ? std::string("set key outside right top vertical\n")
       : longest <= 60 ? fmt::format("set key above maxcols {} width 2\n", key_columns)
                       : std::string("set key above maxcols 1 width 0 font ',12'\n");
  s += "set key spacing 1.2\n";
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
  // Not a structured binding: a lambda below uses them (C++17 lets no lambda capture one).
  const auto range = x_range(p);
  const double lo = range.first, hi = range.second;
  // Each mark's label goes in a row near the top of the plot, at its x, in the first row
  // where it overlaps no label already placed (widths estimated from their characters at
  // 12 points over the plot's width), so that crossovers close together never cover one
  // another; a crossover's point gets a dot of its own on the lines that cross.
  const double plot_width = beside ? 600.0 : 800.0;          // pixels, the key beside or above
  std::vector<std::vector<std::pair<double, double>>> rows;  // taken extents per row
  std::vector<std::size_t> order(p.marks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto fraction = [&](double x) {
    return p.logx && lo > 0 ? std::log(x / lo) / std::log(hi / lo) : (x - lo) / (hi - lo);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p.marks[a].x < p.marks[b].x; });
  std::vector<std::size_t> row_of(p.marks.size(), 0);
  for (const std::size_t i : order) {
    const Mark& m = p.marks[i];
    const double at = std::isfinite(fraction(m.x)) ? fraction(m.x) : 0;
    const auto chars =
        static_cast<double>(std::count_if(m.label.begin(), m.label.end(), [](char c) {
          return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        }));
    const double width = (chars * 7.0 + 12) / plot_width;
    // Labels in the right part of the range read leftwards, so they stay on the plot.
    const std::pair<double, double> extent =
        at > 0.6 ? std::pair{at - width, at} : std::pair{at, at + width};
    std::size_t row = 0;
    for (;; ++row) {
      if (row == rows.size()) rows.emplace_back();
      const bool free = std::none_of(rows[row].begin(), rows[row].end(), [&](const auto& e) {
        return extent.first < e.second + 0.01 && e.first < extent.second + 0.01;
      });
      if (free) break;
    }
    rows[row].push_back(extent);
    row_of[i] = row;
  }
  for (std::size_t i = 0; i < p.marks.size(); ++i) {
    const Mark& m = p.marks[i];
    const double at = fraction(m.x);
    const bool right = std::isfinite(at) && at > 0.6;
    s += fmt::format(
        "set arrow {} from {}, graph 0 to {}, graph 1 nohead dashtype 3 lc rgb '#777777'\n", i + 1,
        m.x, m.x);
    s += fmt::format(
        "set label {} {} at {}, graph {:.3f} {} offset {},0 font ',12' textcolor rgb '#222222'\n",
        i + 1, gp_string(m.label), m.x, 0.96 - 0.065 * static_cast<double>(row_of[i]),
        right ? "right" : "left", right ? -0.5 : 0.5);
    if (m.y) {
      s += fmt::format("set label {} '' at {}, {} point pt 7 ps 1.2 lc rgb '#444444'\n", 50 + i,
                       m.x, *m.y);
    }
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
        "{}",
        i ? ", \\\n     " : "", i, 4 + 2 * (i % 5), l.dashed ? 2 : 1,
        kColours[l.colour % std::size(kColours)],
        l.title.empty() ? std::string("notitle") : "title " + gp_string(l.title));
  }
  return s + "\n";
}

std::string gnuplot_program() {
  const char* env = std::getenv("KEXP_GNUPLOT");
  return env != nullptr && *env != '\0' ? env : "gnuplot";
}

bool gnuplot_runs(const std::string& program) {
  // Asked once per program and process: a run asks for every K it draws.
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto [it, fresh] = known.try_emplace(program, false);
  if (fresh) {
    it->second = exited_zero(std::system((shell_quote(program) + " -V > /dev/null 2>&1").c_str()));
  }
  return it->second;
}

bool draw(const std::string& program, const fs::path& dir, const std::string& name) {
  const std::string command =
      fmt::format("cd {} && {} {} > /dev/null 2>&1", shell_quote(dir.string()),
                  shell_quote(program), shell_quote(name + ".gp"));
  return exited_zero(std::system(command.c_str())) && fs::exists(dir / (name + ".svg"));
}

}  // namespace kexp::core::plot
