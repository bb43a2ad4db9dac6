// The formula engine's transposes for one instruction set (formula_engine_isa.inl): the
// mirror of K(X, X), by tiles in vector registers. Included by formula_engine_isa.inl only,
// after it has set KEXP_FORMULA_VECTOR_SLEEF; internal linkage, as everything of the
// engine.
#include <cstddef>

namespace kexp::detail::formula_engine {
namespace {

// ---- Transposes of blocks (the mirror of K(X, X)): tiles of W × W in vector registers,
// each read as W columns and written as W rows, the edges one value at a time. A band of W
// rows of the mirror is written from left to right before the next, so that the writes go
// out as whole lines of each row, while the block, just computed, is read from the cache.

template <class T>
void transpose_edges(const T* from, T* to, std::size_t rows, std::size_t cols, std::size_t ld,
                     std::size_t full_rows, std::size_t full_cols) {
  for (std::size_t j = 0; j < cols; ++j)
    for (std::size_t i = j < full_cols ? full_rows : 0; i < rows; ++i)
      to[j + i * ld] = from[i + j * ld];
}

#if defined(KEXP_FORMULA_VECTOR_SLEEF) && defined(__AVX512F__)
/// 8 × 8 doubles: in[j] is column j of the tile, out[i] row i.
inline void transpose8(__m512d r[8]) {
  const __m512d t0 = _mm512_unpacklo_pd(r[0], r[1]), t1 = _mm512_unpackhi_pd(r[0], r[1]);
  const __m512d t2 = _mm512_unpacklo_pd(r[2], r[3]), t3 = _mm512_unpackhi_pd(r[2], r[3]);
  const __m512d t4 = _mm512_unpacklo_pd(r[4], r[5]), t5 = _mm512_unpackhi_pd(r[4], r[5]);
  const __m512d t6 = _mm512_unpacklo_pd(r[6], r[7]), t7 = _mm512_unpackhi_pd(r[6], r[7]);
  const __m512i lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  const __m512d u0 = _mm512_permutex2var_pd(t0, lo, t2), u1 = _mm512_permutex2var_pd(t1, lo, t3);
  const __m512d u2 = _mm512_permutex2var_pd(t0, hi, t2), u3 = _mm512_permutex2var_pd(t1, hi, t3);
  const __m512d u4 = _mm512_permutex2var_pd(t4, lo, t6), u5 = _mm512_permutex2var_pd(t5, lo, t7);
  const __m512d u6 = _mm512_permutex2var_pd(t4, hi, t6), u7 = _mm512_permutex2var_pd(t5, hi, t7);
  r[0] = _mm512_shuffle_f64x2(u0, u4, 0x44);
  r[1] = _mm512_shuffle_f64x2(u1, u5, 0x44);
  r[2] = _mm512_shuffle_f64x2(u2, u6, 0x44);
  r[3] = _mm512_shuffle_f64x2(u3, u7, 0x44);
  r[4] = _mm512_shuffle_f64x2(u0, u4, 0xee);
  r[5] = _mm512_shuffle_f64x2(u1, u5, 0xee);
  r[6] = _mm512_shuffle_f64x2(u2, u6, 0xee);
  r[7] = _mm512_shuffle_f64x2(u3, u7, 0xee);
}

void transpose_block(const double* from, double* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  const std::size_t R = rows / 8 * 8, C = cols / 8 * 8;
  for (std::size_t i0 = 0; i0 < R; i0 += 8) {
    for (std::size_t j0 = 0; j0 < C; j0 += 8) {
      __m512d r[8];
      for (int j = 0; j < 8; ++j) r[j] = _mm512_loadu_pd(from + i0 + (j0 + j) * ld);
      transpose8(r);
      for (int i = 0; i < 8; ++i) _mm512_storeu_pd(to + j0 + (i0 + i) * ld, r[i]);
    }
  }
  transpose_edges(from, to, rows, cols, ld, R, C);
}
#elif defined(KEXP_FORMULA_VECTOR_SLEEF) && defined(__AVX2__)
void transpose_block(const double* from, double* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  const std::size_t R = rows / 4 * 4, C = cols / 4 * 4;
  for (std::size_t i0 = 0; i0 < R; i0 += 4) {
    for (std::size_t j0 = 0; j0 < C; j0 += 4) {
      const __m256d c0 = _mm256_loadu_pd(from + i0 + j0 * ld);
      const __m256d c1 = _mm256_loadu_pd(from + i0 + (j0 + 1) * ld);
      const __m256d c2 = _mm256_loadu_pd(from + i0 + (j0 + 2) * ld);
      const __m256d c3 = _mm256_loadu_pd(from + i0 + (j0 + 3) * ld);
      const __m256d t0 = _mm256_unpacklo_pd(c0, c1), t1 = _mm256_unpackhi_pd(c0, c1);
      const __m256d t2 = _mm256_unpacklo_pd(c2, c3), t3 = _mm256_unpackhi_pd(c2, c3);
      _mm256_storeu_pd(to + j0 + i0 * ld, _mm256_permute2f128_pd(t0, t2, 0x20));
      _mm256_storeu_pd(to + j0 + (i0 + 1) * ld, _mm256_permute2f128_pd(t1, t3, 0x20));
      _mm256_storeu_pd(to + j0 + (i0 + 2) * ld, _mm256_permute2f128_pd(t0, t2, 0x31));
      _mm256_storeu_pd(to + j0 + (i0 + 3) * ld, _mm256_permute2f128_pd(t1, t3, 0x31));
    }
  }
  transpose_edges(from, to, rows, cols, ld, R, C);
}
#elif defined(KEXP_FORMULA_VECTOR_SLEEF)
void transpose_block(const double* from, double* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  const std::size_t R = rows / 2 * 2, C = cols / 2 * 2;
  for (std::size_t i0 = 0; i0 < R; i0 += 2) {
    for (std::size_t j0 = 0; j0 < C; j0 += 2) {
      const __m128d c0 = _mm_loadu_pd(from + i0 + j0 * ld);
      const __m128d c1 = _mm_loadu_pd(from + i0 + (j0 + 1) * ld);
      _mm_storeu_pd(to + j0 + i0 * ld, _mm_unpacklo_pd(c0, c1));
      _mm_storeu_pd(to + j0 + (i0 + 1) * ld, _mm_unpackhi_pd(c0, c1));
    }
  }
  transpose_edges(from, to, rows, cols, ld, R, C);
}
#else
void transpose_block(const double* from, double* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  transpose_edges(from, to, rows, cols, ld, 0, 0);
}
#endif

#if defined(KEXP_FORMULA_VECTOR_SLEEF) && defined(__AVX512F__)
/// 16 × 16 floats: 16 columns in, 16 rows out; each row written is a whole cache line.
inline void transpose16(__m512 r[16]) {
  __m512 t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xee);
    r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xee);
  }
  for (int i = 0; i < 4; ++i) {
    t[i] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0x88);
    t[i + 4] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0xdd);
    t[i + 8] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0x88);
    t[i + 12] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0xdd);
  }
  for (int i = 0; i < 8; ++i) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xdd);
  }
}

void transpose_block(const float* from, float* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  const std::size_t R = rows / 16 * 16, C = cols / 16 * 16;
  for (std::size_t i0 = 0; i0 < R; i0 += 16) {
    for (std::size_t j0 = 0; j0 < C; j0 += 16) {
      __m512 r[16];
      for (int j = 0; j < 16; ++j) r[j] = _mm512_loadu_ps(from + i0 + (j0 + j) * ld);
      transpose16(r);
      for (int i = 0; i < 16; ++i) _mm512_storeu_ps(to + j0 + (i0 + i) * ld, r[i]);
    }
  }
  transpose_edges(from, to, rows, cols, ld, R, C);
}
#elif defined(KEXP_FORMULA_VECTOR_SLEEF) && defined(__AVX2__)
/// 8 × 8 floats: 8 columns in, 8 rows out.
void transpose_block(const float* from, float* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  const std::size_t R = rows / 8 * 8, C = cols / 8 * 8;
  for (std::size_t i0 = 0; i0 < R; i0 += 8) {
    for (std::size_t j0 = 0; j0 < C; j0 += 8) {
      __m256 r[8];
      for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_ps(from + i0 + (j0 + j) * ld);
      const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
      const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
      const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
      const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
      const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xee);
      const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xee);
      const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xee);
      const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xee);
      r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
      r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
      r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
      r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
      r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
      r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
      r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
      r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
      for (int i = 0; i < 8; ++i) _mm256_storeu_ps(to + j0 + (i0 + i) * ld, r[i]);
    }
  }
  transpose_edges(from, to, rows, cols, ld, R, C);
}
#elif defined(KEXP_FORMULA_VECTOR_SLEEF)
void transpose_block(const float* from, float* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  const std::size_t R = rows / 4 * 4, C = cols / 4 * 4;
  for (std::size_t i0 = 0; i0 < R; i0 += 4) {
    for (std::size_t j0 = 0; j0 < C; j0 += 4) {
      __m128 c0 = _mm_loadu_ps(from + i0 + j0 * ld);
      __m128 c1 = _mm_loadu_ps(from + i0 + (j0 + 1) * ld);
      __m128 c2 = _mm_loadu_ps(from + i0 + (j0 + 2) * ld);
      __m128 c3 = _mm_loadu_ps(from + i0 + (j0 + 3) * ld);
      _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
      _mm_storeu_ps(to + j0 + i0 * ld, c0);
      _mm_storeu_ps(to + j0 + (i0 + 1) * ld, c1);
      _mm_storeu_ps(to + j0 + (i0 + 2) * ld, c2);
      _mm_storeu_ps(to + j0 + (i0 + 3) * ld, c3);
    }
  }
  transpose_edges(from, to, rows, cols, ld, R, C);
}
#else
void transpose_block(const float* from, float* to, std::size_t rows, std::size_t cols,
                     std::size_t ld) {
  transpose_edges(from, to, rows, cols, ld, 0, 0);
}
#endif

template <class T>
void transpose(const T* from, T* to, std::size_t rows, std::size_t cols, std::size_t ld) {
  transpose_block(from, to, rows, cols, ld);
}


}  // namespace
}  // namespace kexp::detail::formula_engine
