#include "run/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

namespace kexp::core {

Progress::Progress(std::size_t total, bool quiet)
    : total_(total), enabled_(!quiet && isatty(STDERR_FILENO) != 0) {}

void Progress::update(std::size_t finished, std::size_t failed) {
  if (!enabled_) return;
  const double elapsed = clock_.seconds();
  const double eta = finished > 0 && total_ > finished ? elapsed / static_cast<double>(finished) *
                                                             static_cast<double>(total_ - finished)
                                                       : 0;
  std::cerr << fmt::format("\r{}/{} runs, {} failed, {:.0f}s elapsed, ETA {:.0f}s   ", finished,
                           total_, failed, elapsed, eta);
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
