// The formula engine's vectors for one instruction set (formula_engine_isa.inl): the
// functions SLEEF computes for AVX-512, AVX2 or SSE2, on a register of doubles or floats,
// and the scalar fallback. Included by formula_engine_isa.inl only, after it has set
// KEXP_FORMULA_VECTOR_SLEEF; internal linkage, as everything of the engine.
#include <cmath>
#include <cstddef>

namespace kexp::detail::formula_engine {
namespace {

// ---- The instruction set's vectors, for the functions SLEEF computes.

#if defined(KEXP_FORMULA_VECTOR_SLEEF) && defined(__AVX512F__)
struct SimdDouble {
  using V = __m512d;
  static constexpr std::size_t W = 8;
  static V load(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, V v) { _mm512_storeu_pd(p, v); }
  static V log(V x) { return Sleef_logd8_u35avx512f(x); }
  static V tanh(V x) { return Sleef_tanhd8_u35avx512f(x); }
  static V sin(V x) { return Sleef_sind8_u35avx512f(x); }
  static V cos(V x) { return Sleef_cosd8_u35avx512f(x); }
  /// sqrt and 1/sqrt from VRSQRT14PD's 14 bits and Newton's steps, several times faster than
  /// VSQRTPD and VDIVPD here, within 2 ulp: y ← y(3/2 − x·y²/2) twice (2⁻¹⁴ → 2⁻⁵³), then for
  /// sqrt r = x·y and one step r ← r + y(x − r²)/2. An x below the normal range is scaled by
  /// 2¹⁰⁸ first (y² would overflow), and 0 and +inf are their own roots.
  static constexpr bool kFastRoots = true;
  static V inverse_root(V x, __mmask8& small) {
    small = _mm512_cmp_pd_mask(x, _mm512_set1_pd(2.2250738585072014e-308), _CMP_LT_OQ);
    const V xs = _mm512_mask_mul_pd(x, small, x, _mm512_set1_pd(0x1p108));
    const V h = _mm512_mul_pd(xs, _mm512_set1_pd(0.5));
    const V three_halves = _mm512_set1_pd(1.5);
    V y = _mm512_rsqrt14_pd(xs);
    y = _mm512_mul_pd(y, _mm512_fnmadd_pd(h, _mm512_mul_pd(y, y), three_halves));
    y = _mm512_mul_pd(y, _mm512_fnmadd_pd(h, _mm512_mul_pd(y, y), three_halves));
    return y;
  }
  static V sqrt(V x) {
    __mmask8 small;
    const V y = inverse_root(x, small);
    const V xs = _mm512_mask_mul_pd(x, small, x, _mm512_set1_pd(0x1p108));
    V r = _mm512_mul_pd(xs, y);
    r = _mm512_fmadd_pd(_mm512_mul_pd(y, _mm512_set1_pd(0.5)), _mm512_fnmadd_pd(r, r, xs), r);
    r = _mm512_mask_mul_pd(r, small, r, _mm512_set1_pd(0x1p-54));
    const __mmask8 own = _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_EQ_OQ) |
                         _mm512_cmp_pd_mask(x, _mm512_set1_pd(INFINITY), _CMP_EQ_OQ);
    return _mm512_mask_mov_pd(r, own, x);
  }
  static V rsqrt(V x) {
    __mmask8 small;
    V y = inverse_root(x, small);
    y = _mm512_mask_mul_pd(y, small, y, _mm512_set1_pd(0x1p54));
    const __mmask8 zero = _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_EQ_OQ);
    const __mmask8 inf = _mm512_cmp_pd_mask(x, _mm512_set1_pd(INFINITY), _CMP_EQ_OQ);
    y = _mm512_mask_mov_pd(y, zero, _mm512_set1_pd(INFINITY));
    return _mm512_mask_mov_pd(y, inf, _mm512_setzero_pd());
  }
};
struct SimdFloat {
  using V = __m512;
  static constexpr std::size_t W = 16;
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  static V log(V x) { return Sleef_logf16_u35avx512f(x); }
  static V tanh(V x) { return Sleef_tanhf16_u35avx512f(x); }
  static V sin(V x) { return Sleef_sinf16_u35avx512f(x); }
  static V cos(V x) { return Sleef_cosf16_u35avx512f(x); }
  /// As SimdDouble's, from VRSQRT14PS: one Newton step gives 2⁻²⁷; floats below the normal
  /// range are scaled by 2⁴⁸.
  static constexpr bool kFastRoots = true;
  static V inverse_root(V x, __mmask16& small) {
    small = _mm512_cmp_ps_mask(x, _mm512_set1_ps(1.17549435e-38F), _CMP_LT_OQ);
    const V xs = _mm512_mask_mul_ps(x, small, x, _mm512_set1_ps(0x1p48F));
    const V h = _mm512_mul_ps(xs, _mm512_set1_ps(0.5F));
    const V y = _mm512_rsqrt14_ps(xs);
    return _mm512_mul_ps(y, _mm512_fnmadd_ps(h, _mm512_mul_ps(y, y), _mm512_set1_ps(1.5F)));
  }
  static V sqrt(V x) {
    __mmask16 small;
    const V y = inverse_root(x, small);
    const V xs = _mm512_mask_mul_ps(x, small, x, _mm512_set1_ps(0x1p48F));
    V r = _mm512_mul_ps(xs, y);
    r = _mm512_fmadd_ps(_mm512_mul_ps(y, _mm512_set1_ps(0.5F)), _mm512_fnmadd_ps(r, r, xs), r);
    r = _mm512_mask_mul_ps(r, small, r, _mm512_set1_ps(0x1p-24F));
    const __mmask16 own = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_EQ_OQ) |
                          _mm512_cmp_ps_mask(x, _mm512_set1_ps(INFINITY), _CMP_EQ_OQ);
    return _mm512_mask_mov_ps(r, own, x);
  }
  static V rsqrt(V x) {
    __mmask16 small;
    V y = inverse_root(x, small);
    y = _mm512_mask_mul_ps(y, small, y, _mm512_set1_ps(0x1p24F));
    const __mmask16 zero = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_EQ_OQ);
    const __mmask16 inf = _mm512_cmp_ps_mask(x, _mm512_set1_ps(INFINITY), _CMP_EQ_OQ);
    y = _mm512_mask_mov_ps(y, zero, _mm512_set1_ps(INFINITY));
    return _mm512_mask_mov_ps(y, inf, _mm512_setzero_ps());
  }
};
#elif defined(KEXP_FORMULA_VECTOR_SLEEF) && defined(__AVX2__)
struct SimdDouble {
  using V = __m256d;
  static constexpr std::size_t W = 4;
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
  static V log(V x) { return Sleef_logd4_u35avx2(x); }
  static V tanh(V x) { return Sleef_tanhd4_u35avx2(x); }
  static V sin(V x) { return Sleef_sind4_u35avx2(x); }
  static V cos(V x) { return Sleef_cosd4_u35avx2(x); }
  static constexpr bool kFastRoots = false;  // the square root instruction, inline
  static V sqrt(V x) { return x; }
  static V rsqrt(V x) { return x; }
};
struct SimdFloat {
  using V = __m256;
  static constexpr std::size_t W = 8;
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V log(V x) { return Sleef_logf8_u35avx2(x); }
  static V tanh(V x) { return Sleef_tanhf8_u35avx2(x); }
  static V sin(V x) { return Sleef_sinf8_u35avx2(x); }
  static V cos(V x) { return Sleef_cosf8_u35avx2(x); }
  static constexpr bool kFastRoots = false;  // the square root instruction, inline
  static V sqrt(V x) { return x; }
  static V rsqrt(V x) { return x; }
};
#elif defined(KEXP_FORMULA_VECTOR_SLEEF)
struct SimdDouble {
  using V = __m128d;
  static constexpr std::size_t W = 2;
  static V load(const double* p) { return _mm_loadu_pd(p); }
  static void store(double* p, V v) { _mm_storeu_pd(p, v); }
  static V log(V x) { return Sleef_logd2_u35sse2(x); }
  static V tanh(V x) { return Sleef_tanhd2_u35sse2(x); }
  static V sin(V x) { return Sleef_sind2_u35sse2(x); }
  static V cos(V x) { return Sleef_cosd2_u35sse2(x); }
  static constexpr bool kFastRoots = false;  // the square root instruction, inline
  static V sqrt(V x) { return x; }
  static V rsqrt(V x) { return x; }
};
struct SimdFloat {
  using V = __m128;
  static constexpr std::size_t W = 4;
  static V load(const float* p) { return _mm_loadu_ps(p); }
  static void store(float* p, V v) { _mm_storeu_ps(p, v); }
  static V log(V x) { return Sleef_logf4_u35sse2(x); }
  static V tanh(V x) { return Sleef_tanhf4_u35sse2(x); }
  static V sin(V x) { return Sleef_sinf4_u35sse2(x); }
  static V cos(V x) { return Sleef_cosf4_u35sse2(x); }
  static constexpr bool kFastRoots = false;  // the square root instruction, inline
  static V sqrt(V x) { return x; }
  static V rsqrt(V x) { return x; }
};
#else
// No SLEEF: one value at a time, by the C library (log by kexp::vlog, which vectorizes).
template <class T>
struct SimdScalar {
  using V = T;
  static constexpr std::size_t W = 1;
  static V load(const T* p) { return *p; }
  static void store(T* p, V v) { *p = v; }
  static V log(V x) { return std::log(x); }
  static V tanh(V x) { return std::tanh(x); }
  static V sin(V x) { return std::sin(x); }
  static V cos(V x) { return std::cos(x); }
  static constexpr bool kFastRoots = false;  // std::sqrt, inline
  static V sqrt(V x) { return x; }
  static V rsqrt(V x) { return x; }
};
using SimdDouble = SimdScalar<double>;
using SimdFloat = SimdScalar<float>;
#endif

template <class T>
struct Simd;
template <>
struct Simd<double> : SimdDouble {};
template <>
struct Simd<float> : SimdFloat {};

/// x[i] = f(x[i]) for i < n, a vector at a time (the last one through a padded copy).
template <class T, class F>
void in_place(T* x, std::size_t n, F f) {
  using S = Simd<T>;
  std::size_t i = 0;
  for (; i + S::W <= n; i += S::W) S::store(x + i, f(S::load(x + i)));
  if (i < n) {
    T tail[S::W];
    for (std::size_t j = 0; j < S::W; ++j) tail[j] = i + j < n ? x[i + j] : T(1);
    S::store(tail, f(S::load(tail)));
    for (std::size_t j = 0; i + j < n; ++j) x[i + j] = tail[j];
  }
}

}  // namespace
}  // namespace kexp::detail::formula_engine
