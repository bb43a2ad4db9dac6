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

#include "sdk/formula_engine_simd.inl"
#include "sdk/formula_engine_transpose.inl"

namespace kexp::detail::formula_engine {
namespace {

/// Entries of a column run at a time: the registers of a program (16 columns of 2 KiB in
/// float64) stay in the L1 cache.
constexpr std::size_t kChunk = 256;


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

}  // namespace

const Engine KEXP_FORMULA_ENGINE = {KEXP_FORMULA_ENGINE_NAME, &run_block<double>, &run_block<float>,
                                    &transpose<double>, &transpose<float>};

}  // namespace kexp::detail::formula_engine
