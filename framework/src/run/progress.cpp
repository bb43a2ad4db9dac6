// The progress line: each run's cost in flops, the line's text (runs, failures, rate,
// elapsed time, ETA weighed by cost, the running cell) and its display on a terminal,
// rewritten in place and cleared for messages.
#include "run/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>

namespace kexp::core {

double run_cost(Form form, double n, double m, double d, double D, std::size_t splits,
                double n_fit) {
  const double folds = static_cast<double>(splits);
  if (form == Form::Dual) {
    return kRunOverheadFlops + n * n * d + n * m * d + n * n * n / 3.0 +
           folds * n_fit * n_fit * n_fit / 3.0;
  }
  return kRunOverheadFlops + D * (n + m) * d + D * D * n + D * D * D / 3.0 +
         folds * (D * D * n_fit + D * D * D / 3.0);
}

double run_cost(Form form, const DataDims& data, const Kernel& kernel) {
  double D = 0;
  if (form == Form::Primal) {
    try {
      D = static_cast<double>(
          kernel.feature_map()->dimension(static_cast<std::size_t>(data.input_size)));
    } catch (const std::exception&) {
      return 0;  // refused
    }
  }
  return run_cost(form, data.n, data.m, data.d, D, data.splits, data.largest_fit);
}

std::string duration_text(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string progress_line(const ProgressState& s) {
  std::string line = fmt::format("{}/{} runs, {} failed", s.finished, s.total, s.failed);
  if (s.finished > 0 && s.elapsed > 0) {
    const double per_second = static_cast<double>(s.finished) / s.elapsed;
    if (per_second >= 10) {
      line += fmt::format(", {:.0f} runs/s", per_second);
    } else if (per_second >= 1) {
      line += fmt::format(", {:.1f} runs/s", per_second);
    } else {
      line += fmt::format(", {:.2g} runs/min", 60.0 * per_second);
    }
  }
  line += fmt::format(", {} elapsed", duration_text(s.elapsed));
  if (s.finished >= s.total) {
    // nothing left
  } else if (s.cost_done > 0 && s.cost_total > s.cost_done) {
    line += ", ETA " + duration_text(s.elapsed / s.cost_done * (s.cost_total - s.cost_done));
  } else {
    line += ", ETA unknown";  // nothing finished yet to measure the pace by
  }
  if (!s.running.empty()) line += "; running " + s.running;
  return line;
}

Progress::Progress(std::size_t total, double cost_total, bool quiet)
    : enabled_(!quiet && isatty(STDERR_FILENO) != 0) {
  state_.total = total;
  state_.cost_total = cost_total;
}

void Progress::started(const std::string& label) {
  state_.running = label;
  show();
}

void Progress::update(std::size_t finished, std::size_t failed, double cost_done) {
  state_.finished = finished;
  state_.failed = failed;
  state_.cost_done = cost_done;
  state_.running.clear();
  show();
}

void Progress::show() {
  if (!enabled_) return;
  state_.elapsed = clock_.seconds();
  // \x1b[K clears what a longer line before it left.
  std::cerr << "\r" << progress_line(state_) << "\x1b[K" << std::flush;
  shown_ = true;
}

void Progress::message(const std::string& text) {
  close();
  std::cerr << text << '\n';
}

void Progress::close() {
  if (shown_) std::cerr << '\n';
  shown_ = false;
}

}  // namespace kexp::core
