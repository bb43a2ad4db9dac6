// What the GPU work of `device: cuda` needs of device memory, and how falkon's blocks of
// K_nm are sized from what is free: plain arithmetic, tested without a GPU.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace kexp::device {

/// Bytes kernel_ridge holds on the GPU for n points in d dimensions: K (n × n), X, y and
/// β, besides cuSOLVER's workspace (`workspace_bytes`).
[[nodiscard]] double ridge_bytes(std::size_t n, std::size_t d, double workspace_bytes);

/// Bytes primal_ridge holds on the GPU for D features of n points: Φ (D × n), ΦΦᵀ + λI
/// (D × D), y and Φy, besides cuSOLVER's workspace (`workspace_bytes`).
[[nodiscard]] double primal_bytes(std::size_t D, std::size_t n, double workspace_bytes);

/// Bytes falkon holds on the GPU whatever the block: X (d × n), its squared norms and two
/// n-vectors, the centres, K_mm and the two m × m factors, and m-vectors.
[[nodiscard]] double nystrom_fixed_bytes(std::size_t n, std::size_t m, std::size_t d);

/// nystrom_fixed_bytes with a block of K_nm at its smallest, min(n, 256) rows: the least
/// falkon's fit holds on the GPU.
[[nodiscard]] double nystrom_least_bytes(std::size_t n, std::size_t m, std::size_t d);

/// Bytes kernel_product holds for n training points and m points to predict at, in d
/// dimensions, with a block of K(X*, X) at its smallest, min(m, 256) rows: the points,
/// their squared norms, the coefficients and the predictions, and the block.
[[nodiscard]] double product_least_bytes(std::size_t n, std::size_t m, std::size_t d);

/// Bytes gp_regression holds on the GPU at its peak, predicting at m points from n in d
/// dimensions: C's factor, the points with their norms and α, the m points with their
/// norms, means and variances, and a block of K(X, X*) at its smallest, min(m, 256)
/// columns; or, when larger, what the fit holds (ridge_bytes).
[[nodiscard]] double gp_least_bytes(std::size_t n, std::size_t m, std::size_t d);

/// Rows of K_nm in one block: as many as the fraction `share` of `free_bytes` holds at
/// 8·(m + 2) bytes a row (the block and its two row vectors), at most n, rounded down to
/// a multiple of 256 when above it. 0 when not even min(n, 256) rows fit.
[[nodiscard]] std::size_t nystrom_block_rows(std::size_t n, std::size_t m, double free_bytes,
                                             double share);

/// Columns of Z in one block of kernel_product: as for nystrom_block_rows, with n
/// training points per column.
[[nodiscard]] std::size_t product_block_columns(std::size_t columns, std::size_t n,
                                                double free_bytes, double share);

/// The refusal of a cell that needs `needed` bytes of device memory when `free_bytes` of
/// `total_bytes` are free, naming `what` it holds; nothing when it fits.
[[nodiscard]] std::optional<std::string> memory_refusal(double needed, double free_bytes,
                                                        double total_bytes,
                                                        const std::string& what);

/// "12.5 GiB"
[[nodiscard]] std::string gib_text(double bytes);

}  // namespace kexp::device
