// What summary.md and the plots are computed from, its arithmetic: mean and deviation,
// power-law fits and crossovers, the time range of a cell, and numbers as text. The cells
// themselves are gathered in cell_summary.cpp, primal-dual pairs found in form_pairs.cpp.
#include "reporting/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace kexp::core {

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

}  // namespace kexp::core
