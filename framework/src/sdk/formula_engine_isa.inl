// The formula engine's inner loop for one instruction set: the program run over a block of
// K a column at a time, each instruction a vectorized pass over the column (in chunks of
// kChunk entries, its registers columns of their own, all in the L1 cache). Operands are
// read where they are: a register, the block's s, the norms, a broadcast constant; r2 is
// computed where it is read (max(0, xx + zz − 2s)), and the last instruction writes the
// block itself. exp, log, sqrt and the integer powers are inline (kexp::vexp, vlog, vpow
// and their float32 twins, and the square root instruction); tanh, sin, cos and the log of
// the constant powers come from SLEEF's functions for this instruction set, when kexp was
// built with SLEEF.
//
// Included once by each of formula_engine_avx512.cpp, _avx2.cpp, _sse2.cpp and
// _generic.cpp, which define KEXP_FORMULA_ENGINE (the Engine to define) and
// KEXP_FORMULA_ENGINE_NAME, and are compiled with that instruction set's flags; SLEEF is
// used when KEXP_FORMULA_SLEEF is defined and the compiler targets SSE2, AVX2 or AVX-512.
// Everything here has internal linkage (see formula_engine.hpp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kexp/formula_program.hpp"
#include "kexp/vector_math.hpp"
#include "sdk/formula_engine.hpp"

#if defined(KEXP_FORMULA_SLEEF) && (defined(__AVX512F__) || defined(__AVX2__) || defined(__SSE2__))
#include <immintrin.h>
#include <sleef.h>
#define KEXP_FORMULA_VECTOR_SLEEF 1
#endif

namespace kexp::detail::formula_engine {
namespace {

/// Entries of a column run at a time: the registers of a program (16 columns of 2 KiB in
/// float64) stay in the L1 cache.
constexpr std::size_t kChunk = 256;

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

// ---- Operands: where an instruction reads its values.

template <class T>
struct Pointer {
  const T* p;
  T operator()(std::size_t i) const { return p[i]; }
};

template <class T>
struct Broadcast {
  T v;
  T operator()(std::size_t) const { return v; }
};

/// r2 = max(0, xx + zz − 2s), from the block's s.
template <class T>
struct Distance {
  const T* s;
  const T* xx;
  T zz;
  T operator()(std::size_t i) const {
    const T d = xx[i] + zz - T(2) * s[i];
    return d > T(0) ? d : T(0);
  }
};

/// k·a(i) + m: the first operand of a binary instruction.
template <class T, class A>
struct Affine {
  A a;
  T k, m;
  T operator()(std::size_t i) const { return k * a(i) + m; }
};

/// The chunk of a column the program runs over.
template <class T>
struct Chunk {
  const T* s;   ///< the block's entries: s, until the last instruction writes k there
  const T* xx;  ///< the rows' norms
  T zz;         ///< the column's norm
  T (*regs)[kChunk];
  const T* c;  ///< the constants
  T* spare;    ///< kChunk entries of scratch
};

template <class T, class F>
void with_operand(const FormulaOperand& o, const Chunk<T>& ch, F&& f) {
  switch (o.source) {
    case FormulaSource::reg:
      f(Pointer<T>{ch.regs[o.index]});
      return;
    case FormulaSource::constant:
      f(Broadcast<T>{ch.c[o.index]});
      return;
    case FormulaSource::s:
      f(Pointer<T>{ch.s});
      return;
    case FormulaSource::r2:
      f(Distance<T>{ch.s, ch.xx, ch.zz});
      return;
    case FormulaSource::xx:
      f(Pointer<T>{ch.xx});
      return;
    case FormulaSource::zz:
      f(Broadcast<T>{ch.zz});
      return;
    case FormulaSource::none:
      break;
  }
  f(Broadcast<T>{T(0)});
}

// ---- The instructions.

/// The bits of a float or double, and the mask of its exponent: all ones for NaN and ±inf.
template <class T>
struct Bits;
template <>
struct Bits<double> {
  using U = std::uint64_t;
  static constexpr U kExponent = 0x7ff0000000000000ULL;
};
template <>
struct Bits<float> {
  using U = std::uint32_t;
  static constexpr U kExponent = 0x7f800000U;
};

/// Whether a value of dst[0, n) is NaN or infinite: an integer or-reduction over the bits,
/// which vectorizes where a floating-point one may not.
template <class T>
bool not_finite_in(const T* dst, std::size_t n) {
  using U = typename Bits<T>::U;
  U bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    U b;
    std::memcpy(&b, dst + i, sizeof b);
    bad |= (b & Bits<T>::kExponent) == Bits<T>::kExponent ? U(1) : U(0);
  }
  return bad != 0;
}

/// dst[i] = g(k·a(i) + m)
template <class T, class A, class G>
void map(T* dst, const A& a, T k, T m, std::size_t n, G g) {
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) dst[i] = g(k * a(i) + m);
}

/// dst[i] = g(a(i), b(i))
template <class T, class A, class B, class G>
void zip(T* dst, const A& a, const B& b, std::size_t n, G g) {
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) dst[i] = g(a(i), b(i));
}

template <class T>
KEXP_VECTOR_INLINE T exp_of(T x) {
  if constexpr (sizeof(T) == sizeof(double)) {
    return kexp::vexp(x);
  } else {
    return kexp::vexpf(x);
  }
}

template <class T>
KEXP_VECTOR_INLINE T log_of(T x) {
  if constexpr (sizeof(T) == sizeof(double)) {
    return kexp::vlog(x);
  } else {
    return kexp::vlogf(x);
  }
}

template <class T>
KEXP_VECTOR_INLINE T pow_of(T x, T y) {
  if constexpr (sizeof(T) == sizeof(double)) {
    return kexp::vpow(x, y);
  } else {
    return kexp::vpowf(x, y);
  }
}

/// (k·a + m)^e for a constant e that is not an integer of at most
/// kMaxFormulaIntegerPower: exp(e·log|t|), with the sign of an odd integer power of a
/// negative t, NaN for a negative t and any other e (std::pow's meaning).
template <class T, class A>
void constant_power(T* dst, const A& a, T k, T m, T e, std::size_t n, T* spare) {
  using S = Simd<T>;
  using V = typename S::V;
  if (e == T(-0.5)) {
    if constexpr (S::kFastRoots) {
      map(dst, a, k, m, n, [](T t) { return t; });
      in_place(dst, n, [](V x) { return S::rsqrt(x); });
    } else {
      map(dst, a, k, m, n, [](T t) { return T(1) / std::sqrt(t); });
    }
    return;
  }
  if (e == T(1.5) || e == T(-1.5)) {
    if constexpr (S::kFastRoots) {
      map(dst, a, k, m, n, [](T t) { return t; });
      if (e > T(0)) {
        in_place(dst, n, [](V x) { return x * S::sqrt(x); });
      } else {
        in_place(dst, n, [](V x) {
          const V y = S::rsqrt(x);
          return y * y * y;
        });
      }
    } else if (e > T(0)) {
      map(dst, a, k, m, n, [](T t) { return t * std::sqrt(t); });
    } else {
      map(dst, a, k, m, n, [](T t) { return T(1) / (t * std::sqrt(t)); });
    }
    return;
  }
  const bool integer = std::floor(e) == e;
  const bool odd = integer && std::floor(e / T(2)) != e / T(2);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T sign_of_negative = integer ? (odd ? T(-1) : T(1)) : nan;
  // log|t| into spare, then exp(e·log|t|) with the sign of t, read again (a may be dst
  // itself, read before it is written at each i)
#if defined(KEXP_FORMULA_VECTOR_SLEEF)
  map(spare, a, k, m, n, [](T t) { return std::fabs(t); });
  in_place(spare, n, [](typename Simd<T>::V x) { return Simd<T>::log(x); });
#else
  map(spare, a, k, m, n, [](T t) { return log_of(std::fabs(t)); });
#endif
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) {
    const T v = exp_of(e * spare[i]);
    dst[i] = k * a(i) + m < T(0) ? sign_of_negative * v : v;
  }
}

/// (k·a + m)^e for an integer e, |e| ≤ kMaxFormulaIntegerPower, by repeated squaring (as
/// evaluate_formula).
template <class T, class A>
void integer_power(T* dst, const A& a, T k, T m, int e, std::size_t n) {
  const int q = e < 0 ? -e : e;
  switch (q) {
    case 0:
      map(dst, a, k, m, n, [](T) { return T(1); });
      break;
    case 1:
      map(dst, a, k, m, n, [](T t) { return t; });
      break;
    case 2:
      map(dst, a, k, m, n, [](T t) { return t * t; });
      break;
    case 3:
      map(dst, a, k, m, n, [](T t) { return t * (t * t); });
      break;
    case 4:
      map(dst, a, k, m, n, [](T t) {
        const T t2 = t * t;
        return t2 * t2;
      });
      break;
    default:
      map(dst, a, k, m, n, [q](T t) {
        T r = T(1);
        T b = t;
        for (int bits = q; bits > 0; bits >>= 1) {
          if ((bits & 1) != 0) r *= b;
          b *= b;
        }
        return r;
      });
      break;
  }
  if (e < 0) {
#pragma omp simd
    for (std::size_t i = 0; i < n; ++i) dst[i] = T(1) / dst[i];
  }
}

/// One instruction of one argument.
template <class T, class A>
void unary(const FormulaInstruction& in, const Chunk<T>& ch, T* dst, const A& a, std::size_t n) {
  const T k = ch.c[in.k], m = ch.c[in.m];
  using V = typename Simd<T>::V;
  switch (in.op) {
    case FormulaOp::affine:
      map(dst, a, k, m, n, [](T t) { return t; });
      break;
    case FormulaOp::exp:
      map(dst, a, k, m, n, [](T t) { return exp_of(t); });
      break;
    case FormulaOp::log:
#if defined(KEXP_FORMULA_VECTOR_SLEEF)
      map(dst, a, k, m, n, [](T t) { return t; });
      in_place(dst, n, [](V x) { return Simd<T>::log(x); });
#else
      map(dst, a, k, m, n, [](T t) { return log_of(t); });
#endif
      break;
    case FormulaOp::sqrt:
      if constexpr (Simd<T>::kFastRoots) {
        map(dst, a, k, m, n, [](T t) { return t; });
        in_place(dst, n, [](V x) { return Simd<T>::sqrt(x); });
      } else {
        map(dst, a, k, m, n, [](T t) { return std::sqrt(t); });
      }
      break;
    case FormulaOp::abs:
      map(dst, a, k, m, n, [](T t) { return std::fabs(t); });
      break;
    case FormulaOp::tanh:
      map(dst, a, k, m, n, [](T t) { return t; });
      in_place(dst, n, [](V x) { return Simd<T>::tanh(x); });
      break;
    case FormulaOp::sin:
      map(dst, a, k, m, n, [](T t) { return t; });
      in_place(dst, n, [](V x) { return Simd<T>::sin(x); });
      break;
    case FormulaOp::cos:
      map(dst, a, k, m, n, [](T t) { return t; });
      in_place(dst, n, [](V x) { return Simd<T>::cos(x); });
      break;
    case FormulaOp::powi:
      integer_power(dst, a, k, m, static_cast<int>(ch.c[in.b.index]), n);
      break;
    case FormulaOp::powc:
      constant_power(dst, a, k, m, ch.c[in.b.index], n, ch.spare);
      break;
    default:
      break;
  }
}

template <class T, class A, class B>
void binary(FormulaOp op, T* dst, const A& a, const B& b, std::size_t n) {
  switch (op) {
    case FormulaOp::add:
      zip(dst, a, b, n, [](T x, T y) { return x + y; });
      break;
    case FormulaOp::sub:
      zip(dst, a, b, n, [](T x, T y) { return x - y; });
      break;
    case FormulaOp::mul:
      zip(dst, a, b, n, [](T x, T y) { return x * y; });
      break;
    case FormulaOp::div:
      zip(dst, a, b, n, [](T x, T y) { return x / y; });
      break;
    case FormulaOp::min:
      zip(dst, a, b, n, [](T x, T y) { return (x < y || x != x) ? x : y; });
      break;
    case FormulaOp::max:
      zip(dst, a, b, n, [](T x, T y) { return (x > y || x != x) ? x : y; });
      break;
    case FormulaOp::pow:
      zip(dst, a, b, n, [](T x, T y) { return pow_of(x, y); });
      break;
    default:
      break;
  }
}

/// One instruction over the chunk.
template <class T>
void run(const FormulaInstruction& in, const Chunk<T>& ch, T* dst, std::size_t n) {
  if (in.op >= FormulaOp::affine) {
    with_operand(in.a, ch, [&](const auto& a) { unary(in, ch, dst, a, n); });
  } else {
    with_operand(in.a, ch, [&](const auto& a) {
      const Affine<T, std::decay_t<decltype(a)>> t{a, ch.c[in.k], ch.c[in.m]};
      with_operand(in.b, ch, [&](const auto& b) { binary(in.op, dst, t, b, n); });
    });
  }
}

template <class T>
bool run_block(const FormulaProgram& p, const T* constants, T* k, std::size_t ld, std::size_t rows,
               std::size_t cols, const T* xx, const T* zz) {
  alignas(64) T regs[FormulaProgram::kMaxRegisters][kChunk];
  alignas(64) T spare[kChunk];
  const std::uint32_t count = p.instruction_count;
  const bool in_register = p.result.source == FormulaSource::reg;
  bool bad = false;
  for (std::size_t j = 0; j < cols; ++j) {
    T* col = k + j * ld;
    const T zj = zz != nullptr ? zz[j] : T(0);
    for (std::size_t i0 = 0; i0 < rows; i0 += kChunk) {
      const std::size_t n = rows - i0 < kChunk ? rows - i0 : kChunk;
      T* out = col + i0;
      const Chunk<T> ch{out, xx != nullptr ? xx + i0 : nullptr, zj, regs, constants, spare};
      for (std::uint32_t q = 0; q < count; ++q) {
        const FormulaInstruction& in = p.code[q];
        run(in, ch, in_register && q + 1 == count ? out : regs[in.dst], n);
      }
      if (!in_register && p.result.source != FormulaSource::s) {
        // k is a constant or an input other than s, which is in place already
        with_operand(p.result, ch, [&](const auto& a) {
#pragma omp simd
          for (std::size_t i = 0; i < n; ++i) out[i] = a(i);
        });
      }
      bad = bad || not_finite_in(out, n);
    }
  }
  return !bad;
}

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

const Engine KEXP_FORMULA_ENGINE = {KEXP_FORMULA_ENGINE_NAME, &run_block<double>, &run_block<float>,
                                    &transpose<double>, &transpose<float>};

}  // namespace kexp::detail::formula_engine
