// Device memory of the GPU work and the block sizes of falkon's products.
#include "device/memory_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kexp::device {

namespace {

constexpr std::size_t kRowGranule = 256;

std::size_t rows_that_fit(std::size_t rows, std::size_t per_row_doubles, double free_bytes,
                          double share) {
  const double per_row = 8.0 * static_cast<double>(per_row_doubles);
  const double fit = std::floor(std::max(0.0, free_bytes * share) / per_row);
  if (fit >= static_cast<double>(rows)) return rows;
  const auto whole = static_cast<std::size_t>(fit);
  if (whole < std::min(rows, kRowGranule)) return 0;
  return whole / kRowGranule * kRowGranule;
}

}  // namespace

double ridge_bytes(std::size_t n, std::size_t d, double workspace_bytes) {
  const double nn = static_cast<double>(n);
  return 8.0 * (nn * nn + nn * static_cast<double>(d) + 3.0 * nn) + workspace_bytes;
}

double primal_bytes(std::size_t D, std::size_t n, double workspace_bytes) {
  const double dd = static_cast<double>(D), nn = static_cast<double>(n);
  return 8.0 * (dd * nn + dd * dd + nn + dd) + workspace_bytes;
}

double nystrom_fixed_bytes(std::size_t n, std::size_t m, std::size_t d) {
  const double nn = static_cast<double>(n), mm = static_cast<double>(m);
  const double dd = static_cast<double>(d);
  return 8.0 * (nn * dd + 3.0 * nn + mm * dd + 3.0 * mm * mm + 8.0 * mm);
}

double nystrom_least_bytes(std::size_t n, std::size_t m, std::size_t d) {
  const double rows = static_cast<double>(std::min(n, kRowGranule));
  return nystrom_fixed_bytes(n, m, d) + 8.0 * rows * static_cast<double>(m + 2);
}

double product_least_bytes(std::size_t n, std::size_t m, std::size_t d) {
  const double rows = static_cast<double>(std::min(m, kRowGranule));
  return 8.0 * (static_cast<double>(d + 2) * static_cast<double>(n + m) +
                rows * static_cast<double>(n + 2));
}

double gp_least_bytes(std::size_t n, std::size_t m, std::size_t d) {
  const double x = static_cast<double>(n), t = static_cast<double>(m), dd = static_cast<double>(d);
  const double block = static_cast<double>(std::min<std::size_t>(m, kRowGranule)) * (x + 2.0);
  return std::max(ridge_bytes(n, d, 0.0), 8.0 * (x * x + (dd + 2.0) * x + (dd + 3.0) * t + block));
}

std::size_t nystrom_block_rows(std::size_t n, std::size_t m, double free_bytes, double share) {
  return rows_that_fit(n, m + 2, free_bytes, share);
}

std::size_t product_block_columns(std::size_t columns, std::size_t n, double free_bytes,
                                  double share) {
  return rows_that_fit(columns, n + 2, free_bytes, share);
}

std::optional<std::string> memory_refusal(double needed, double free_bytes, double total_bytes,
                                          const std::string& what) {
  if (needed <= free_bytes) return std::nullopt;
  return fmt::format(
      "refused: it needs about {} of GPU memory ({}), and the GPU has {} free of {}; lower n "
      "or use device: cpu",
      gib_text(needed), what, gib_text(free_bytes), gib_text(total_bytes));
}

std::string gib_text(double bytes) {
  return fmt::format("{:.2f} GiB", bytes / (1024.0 * 1024.0 * 1024.0));
}

}  // namespace kexp::device
