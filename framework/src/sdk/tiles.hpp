// What the float64 (gram.cpp) and float32 (gram_single.cpp) Gram paths share: the vector
// clones of their loops, the sizes of the streamed products' tiles, and their parallel loop
// (tiles or runs of tiles shared among kexp's threads, each thread with scratch of its
// own, BLAS on one thread throughout, an exception of any tile rethrown on the calling
// thread).
#pragma once

#include <omp.h>

#include <armadillo>
#include <cstddef>

#include "kexp/gram.hpp"
#include "kexp/parallel.hpp"

// KEXP_VECTOR_CLONES (kexp/gram.hpp): the loops below are compiled for AVX-512, AVX2 and
// SSE2 and chosen at load by the CPU.

namespace kexp::detail {

/// Bytes of one tile of K in gram::product: 512 KiB, so that a tile, its slice of V and its
/// rows of the result stay in the core's L2 cache between the kernel's pass that writes it
/// and the product that reads it.
inline constexpr std::size_t kTileBytes = std::size_t{1} << 19;
/// Rows of one tile of K(X, C) in gram::normal_product: as many as the Gram's blocks hold.
/// Each tile also checks all of C and takes its norms, m·d work whatever the tile's height,
/// so a tile of few rows spends much of its time there: with tiles of 2 MiB, 26 rows at
/// m = 10⁴, a falkon pass ran at 1.02 ns per entry against 0.68–0.70 with 128–256 rows.
inline constexpr std::size_t kNormalTileRows = 256;
/// Bytes at most of one tile of K(X, C), when m is so large that kNormalTileRows would not
/// fit: the tile stays within a share of the last-level cache (seen: 40 MB tiles at m = 10⁴
/// ran at 0.91 ns per entry).
inline constexpr std::size_t kNormalTileMaxBytes = std::size_t{16} << 20;

/// The rows of a tile of normal_product for m columns of `element` bytes each.
inline std::size_t normal_tile_rows(std::size_t m, std::size_t element) {
  const std::size_t fit = kNormalTileMaxBytes / (element * (m > 0 ? m : 1));
  return fit < 1 ? 1 : (fit < kNormalTileRows ? fit : kNormalTileRows);
}
/// Columns of Z in one tile (product): the rows follow from the tile's bytes.
inline constexpr std::size_t kTileColumns = 1024;
/// Partial sums of normal_product, whatever the number of threads.
inline constexpr std::size_t kSumLanes = 64;

/// Columns [first, first + count) of M as a matrix, without a copy.
template <class Matrix>
Matrix columns_of(const Matrix& M, std::size_t first, std::size_t count) {
  using T = typename Matrix::elem_type;
  return Matrix(const_cast<T*>(M.colptr(first)), M.n_rows, count, /*copy_aux_mem=*/false,
                /*strict=*/true);
}

/// body(i, scratch) for i < count, dynamically scheduled over thread_count() threads; each
/// thread default-constructs one Scratch (its tile buffer) and passes it to every call it
/// makes. Once a call has thrown, the remaining ones are skipped and the first exception
/// is rethrown here. The kernel's Gram of a tile runs on the thread that asked for it
/// (OpenMP regions do not nest), and BLAS on one thread, so that OpenBLAS's threads never
/// compete with these.
template <class Scratch, class Body>
void parallel_tiles(std::size_t count, const Body& body) {
  SingleThreadedBlas single;
  ExceptionCapture capture;
#pragma omp parallel num_threads(thread_count())
  {
    Scratch scratch;
#pragma omp for schedule(dynamic, 1)
    for (long i = 0; i < static_cast<long>(count); ++i) {
      if (capture.failed()) continue;
      capture.run([&] { body(static_cast<std::size_t>(i), scratch); });
    }
  }
  capture.rethrow_if_any();
}

}  // namespace kexp::detail
