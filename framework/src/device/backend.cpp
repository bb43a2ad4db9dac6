// kexp/device.hpp's selection of a backend, device memory owned and copied, and the
// memory accounting: which backend a `device` value names, the probe of GPU 0, the host
// backend's limit, and the arithmetic of what the built-in solvers hold and of the block
// sizes.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>

#include "device/backends.hpp"
#include "kexp/device.hpp"
#include "kexp/error.hpp"
#include "kexp/execution_target.hpp"

namespace kexp::device {

namespace {

constexpr std::size_t kRowGranule = 256;

/// 4 GiB: room for K of about 23 000 points in float64 on the host backend.
constexpr double kDefaultHostMemory = 4.0 * 1024 * 1024 * 1024;

}  // namespace

Backend::~Backend() = default;

bool is_device_path(const std::string& device) {
  return device == to_string(Device::cuda) || device == to_string(Device::host);
}

Backend& backend(const std::string& name) {
  if (name == to_string(Device::cuda)) {
    if (!gpu_info().present) throw Error(gpu_info().reason);
    return cuda_backend();
  }
  if (name == to_string(Device::host)) return host_backend();
  throw InvalidArgument(fmt::format("there is no device backend '{}'; the backends are {} and {}",
                                    name, to_string(Device::cuda), to_string(Device::host)));
}

bool built_with_cuda() {
#if defined(KEXP_WITH_CUDA)
  return true;
#else
  return false;
#endif
}

const GpuInfo& gpu_info() {
  static const GpuInfo info = [] {
    GpuInfo i;
    i.present = probe_cuda(i.name, i.reason, i.free_bytes, i.total_bytes);
    return i;
  }();
  return info;
}

double host_memory_limit() {
  const char* text = std::getenv("KEXP_HOST_DEVICE_MEMORY");
  if (text == nullptr || *text == '\0') return kDefaultHostMemory;
  char* end = nullptr;
  const double bytes = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(bytes > 0) || !std::isfinite(bytes) ||
      bytes != std::floor(bytes)) {
    throw InvalidArgument(fmt::format(
        "KEXP_HOST_DEVICE_MEMORY is '{}'; it must be the host backend's memory in bytes, a "
        "positive whole number (for example 1073741824 for 1 GiB), or unset for 4 GiB",
        text));
  }
  return bytes;
}

// --- Buffer ---

Buffer::Buffer(Backend& backend, std::size_t count)
    : backend_(&backend), data_(backend.allocate(count)), count_(count) {}

Buffer::~Buffer() {
  if (backend_ != nullptr) backend_->release(data_);
}

Buffer::Buffer(Buffer&& other) noexcept
    : backend_(other.backend_), data_(other.data_), count_(other.count_) {
  other.backend_ = nullptr;
  other.data_ = nullptr;
  other.count_ = 0;
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    if (backend_ != nullptr) backend_->release(data_);
    backend_ = other.backend_;
    data_ = other.data_;
    count_ = other.count_;
    other.backend_ = nullptr;
    other.data_ = nullptr;
    other.count_ = 0;
  }
  return *this;
}

// --- timed copies ---

void upload(Backend& backend, double* to, const double* from, std::size_t count,
            Transfers& transfers) {
  backend.synchronize();  // the work before is not a transfer
  const auto start = std::chrono::steady_clock::now();
  backend.copy_to_device(to, from, count);
  transfers.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void download(Backend& backend, double* to, const double* from, std::size_t count,
              Transfers& transfers) {
  backend.synchronize();
  const auto start = std::chrono::steady_clock::now();
  backend.copy_to_host(to, from, count);
  transfers.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Buffer upload(Backend& backend, const arma::mat& host, Transfers& transfers) {
  Buffer b(backend, host.n_elem);
  upload(backend, b.data(), host.memptr(), host.n_elem, transfers);
  return b;
}

arma::vec download(Backend& backend, const Buffer& from, std::size_t count, Transfers& transfers) {
  if (count > from.size()) {
    throw InvalidArgument(
        fmt::format("download: {} entries asked of a buffer of {}", count, from.size()));
  }
  arma::vec out(count);
  download(backend, out.memptr(), from.data(), count, transfers);
  return out;
}

// --- memory accounting ---

std::optional<std::string> memory_refusal(double needed, double free_bytes, double total_bytes,
                                          const std::string& what, const std::string& memory_name) {
  if (needed <= free_bytes) return std::nullopt;
  return fmt::format(
      "refused: it needs about {} of {} ({}), and it has {} free of {}; lower n or use "
      "device: cpu",
      size_text(needed), memory_name, what, size_text(free_bytes), size_text(total_bytes));
}

void require_memory(Backend& backend, double needed, const std::string& what) {
  const Memory m = backend.memory();
  if (auto refusal =
          memory_refusal(needed, m.free_bytes, m.total_bytes, what, backend.memory_name())) {
    throw Error(*refusal);
  }
}

std::string gib_text(double bytes) {
  return fmt::format("{:.2f} GiB", bytes / (1024.0 * 1024.0 * 1024.0));
}

std::string size_text(double bytes) {
  if (std::abs(bytes) >= 1024.0 * 1024.0 * 1024.0) return gib_text(bytes);
  return fmt::format("{:.2f} MiB", bytes / (1024.0 * 1024.0));
}

std::size_t block_rows_that_fit(std::size_t rows, std::size_t width, double free_bytes,
                                double share) {
  const double per_row = 8.0 * static_cast<double>(width + 2);
  const double fit = std::floor(std::max(0.0, free_bytes * share) / per_row);
  if (fit >= static_cast<double>(rows)) return rows;
  const auto whole = static_cast<std::size_t>(fit);
  if (whole < std::min(rows, kRowGranule)) return 0;
  return whole / kRowGranule * kRowGranule;
}

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
  return block_rows_that_fit(n, m, free_bytes, share);
}

std::size_t product_block_columns(std::size_t columns, std::size_t n, double free_bytes,
                                  double share) {
  return block_rows_that_fit(columns, n, free_bytes, share);
}

}  // namespace kexp::device
