// Vector maths for a kernel's own loops: exp, log and pow in float64 (vexp, vlog, vpow) and
// float32 (vexpf, vlogf, vpowf), written so that a loop over them vectorizes under
// `#pragma omp simd`: no branch, no call, no table (GCC also needs -fno-trapping-math to
// if-convert the range clamps, and -fno-math-errno for a loop that calls std::sqrt).
//
//   #pragma omp simd
//   for (std::size_t i = 0; i < rows; ++i) col[i] = kexp::vpow(1.0 + c * col[i], -alpha);
//
// Each is always inlined into its loop, so that it is compiled for the instruction set of
// the loop that calls it (a loop built for several, as kexp's are, gets each).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__GNUC__)
#define KEXP_VECTOR_INLINE inline __attribute__((always_inline))
#else
#define KEXP_VECTOR_INLINE inline
#endif

namespace kexp {

/// exp(x). Relative error below 1e-15 for results in the normal range (a few ulp); results
/// below 2^−1022 are rounded once into the subnormals; x ≤ −746 gives 0 and x ≥ 710 gives
/// +inf; NaN gives NaN.
///
/// x = k·ln 2 + r with k = round(x / ln 2) and |r| ≤ ln 2 / 2 (ln 2 in two parts, so that
/// r is exact); exp(r) by its Taylor series to r¹³ (truncation below 4e-18); then
/// exp(x) = exp(r)·2^k1·2^k2 with k1 + k2 = k, so that neither power leaves the normal
/// range.
KEXP_VECTOR_INLINE double vexp(double x) {
  constexpr double log2e = 1.4426950408889634074;
  constexpr double ln2_hi = 6.93147180369123816490e-01;  // low 32 bits zero: k·ln2_hi exact
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  constexpr double shifter = 6755399441055744.0;  // 1.5·2^52: adding it rounds to an integer
  x = x < -746.0 ? -746.0 : x;
  x = x > 710.0 ? 710.0 : x;
  const double t = x * log2e + shifter;
  const double k = t - shifter;
  const double r = (x - k * ln2_hi) - k * ln2_lo;
  double p = 1.0 / 6227020800.0;  // 1/13!
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // k from the low bits of t, offset to be non-negative (k ≥ −1077) so that halving it
  // is a logical shift.
  std::uint64_t tb, sb;
  std::memcpy(&tb, &t, sizeof tb);
  std::memcpy(&sb, &shifter, sizeof sb);
  const std::uint64_t biased = tb - sb + 2048U;  // k + 2048
  const std::uint64_t k1 = (biased >> 1U);       // ⌊k/2⌋ + 1024
  const std::uint64_t k2 = biased - k1;          // k − ⌊k/2⌋ + 1024
  const std::uint64_t b1 = (k1 - 1024U + 1023U) << 52U;
  const std::uint64_t b2 = (k2 - 1024U + 1023U) << 52U;
  double s1, s2;
  std::memcpy(&s1, &b1, sizeof s1);
  std::memcpy(&s2, &b2, sizeof s2);
  return p * s1 * s2;
}

/// log(x), within 1 ulp (the algorithm of fdlibm's log): x = 2^k·m with m in [√½, √2),
/// f = m − 1, s = f/(2 + f) and log(1 + f) = 2s + s·R(s²) with R its minimax polynomial;
/// a subnormal x is scaled by 2^54 first. log(0) = −inf, log(x < 0) = NaN, log(+inf) =
/// +inf, NaN gives NaN.
KEXP_VECTOR_INLINE double vlog(double x) {
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  constexpr double Lg1 = 6.666666666666735130e-01, Lg2 = 3.999999999940941908e-01,
                   Lg3 = 2.857142874366239149e-01, Lg4 = 2.222219843214978396e-01,
                   Lg5 = 1.818357216161805012e-01, Lg6 = 1.531383769920937332e-01,
                   Lg7 = 1.479819860511658591e-01;
  constexpr double two54 = 18014398509481984.0;
  constexpr double inf = std::numeric_limits<double>::infinity();
  const bool tiny = x < 2.2250738585072014e-308;
  const double y = tiny ? x * two54 : x;
  std::uint64_t ix;
  std::memcpy(&ix, &y, sizeof ix);
  // m in [√½, √2): the mantissa with the exponent of 1, or of ½ when it passes √2 (whose
  // mantissa bits are 0x6a09e…: adding 0x95f64… carries into the exponent exactly then)
  const std::uint64_t mantissa = ix & 0x000fffffffffffffULL;
  const std::uint64_t carry = (mantissa + 0x00095f6400000000ULL) & 0x0010000000000000ULL;
  const std::uint64_t m_bits = mantissa | (carry ^ 0x3ff0000000000000ULL);
  // k + 1023 as a double without an integer conversion: 2^52 + e, less 2^52
  const std::uint64_t k_bits = 0x4330000000000000ULL | (((ix >> 52U) & 0x7ffU) + (carry >> 52U));
  double kd, m;
  std::memcpy(&kd, &k_bits, sizeof kd);
  std::memcpy(&m, &m_bits, sizeof m);
  const double k = kd - (4503599627370496.0 + 1023.0) - (tiny ? 54.0 : 0.0);
  const double f = m - 1.0;
  const double hfsq = 0.5 * f * f;
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double w = z * z;
  const double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
  const double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
  const double R = t2 + t1;
  double r = k * ln2_hi - ((hfsq - (s * (hfsq + R) + k * ln2_lo)) - f);
  r = x == 0.0 ? -inf : r;
  r = x < 0.0 ? std::numeric_limits<double>::quiet_NaN() : r;
  r = x == inf ? inf : r;
  return x != x ? x : r;
}

/// x^y as std::pow gives it: exp(y·log|x|), negative for a negative x and an odd integer
/// y, NaN for a negative x and any other y; x^0 = 1 and 1^y = 1 for every x and y.
/// Relative error about (2 + |y·log x|)·2⁻⁵³ plus vexp's, below 1e-13 while |y·log x| < 500
/// (beyond, the result is outside [1e-217, 1e217]).
KEXP_VECTOR_INLINE double vpow(double x, double y) {
  const double ax = x < 0.0 ? -x : x;
  double r = vexp(y * vlog(ax));
  // y is an integer when it has no fraction; odd when half of it has one. Every double
  // beyond 2^53 is an even integer.
  constexpr double big = 4503599627370496.0;  // 2^52
  const double ay = y < 0.0 ? -y : y;
  const double whole = ay >= big ? ay : (ay + big) - big;  // rounded to an integer
  const bool integer = whole == ay;
  const double half = 0.5 * ay;
  const double half_whole = half >= big ? half : (half + big) - big;
  const bool odd = integer && half_whole != half;
  r = x < 0.0 ? (integer ? (odd ? -r : r) : std::numeric_limits<double>::quiet_NaN()) : r;
  r = y == 0.0 ? 1.0 : r;
  return x == 1.0 ? 1.0 : r;
}

/// expf(x). Relative error below 3·2⁻²⁴ for results in the normal range; results below
/// 2⁻¹²⁶ are rounded once into the subnormals; x ≤ −104 gives 0 and x ≥ 89 gives +inf;
/// NaN gives NaN.
///
/// x = k·ln 2 + r with k = round(x / ln 2) and |r| ≤ ln 2 / 2 (ln 2 in two parts, Cephes's,
/// so that k·ln2_hi is exact); exp(r) by its Taylor series to r⁷ (truncation below 2⁻²⁷);
/// then exp(x) = exp(r)·2^k1·2^k2 with k1 + k2 = k, so that neither power leaves the normal
/// range.
KEXP_VECTOR_INLINE float vexpf(float x) {
  constexpr float log2e = 1.44269504088896341F;
  constexpr float ln2_hi = 0.693359375F;  // 355/512: k·ln2_hi is exact for |k| < 2¹⁵
  constexpr float ln2_lo = -2.12194440e-4F;
  constexpr float shifter = 12582912.0F;  // 1.5·2²³: adding it rounds to an integer
  x = x < -104.0F ? -104.0F : x;
  x = x > 89.0F ? 89.0F : x;
  const float t = x * log2e + shifter;
  const float k = t - shifter;
  const float r = (x - k * ln2_hi) - k * ln2_lo;
  float p = 1.0F / 5040.0F;
  p = p * r + 1.0F / 720.0F;
  p = p * r + 1.0F / 120.0F;
  p = p * r + 1.0F / 24.0F;
  p = p * r + 1.0F / 6.0F;
  p = p * r + 0.5F;
  p = p * r + 1.0F;
  p = p * r + 1.0F;
  // k from the low bits of t, offset to be non-negative (k ≥ −151) so that halving it is a
  // logical shift.
  std::uint32_t tb, sb;
  std::memcpy(&tb, &t, sizeof tb);
  std::memcpy(&sb, &shifter, sizeof sb);
  const std::uint32_t biased = tb - sb + 256U;  // k + 256
  const std::uint32_t k1 = biased >> 1U;        // ⌊k/2⌋ + 128
  const std::uint32_t k2 = biased - k1;         // k − ⌊k/2⌋ + 128
  const std::uint32_t b1 = (k1 - 128U + 127U) << 23U;
  const std::uint32_t b2 = (k2 - 128U + 127U) << 23U;
  float s1, s2;
  std::memcpy(&s1, &b1, sizeof s1);
  std::memcpy(&s2, &b2, sizeof s2);
  return p * s1 * s2;
}

/// logf(x), within 1 ulp (fdlibm's logf, as vlog): log(0) = −inf, log(x < 0) = NaN,
/// log(+inf) = +inf, NaN gives NaN.
KEXP_VECTOR_INLINE float vlogf(float x) {
  constexpr float ln2_hi = 6.9313812256e-01F;
  constexpr float ln2_lo = 9.0580006145e-06F;
  constexpr float Lg1 = 6.6666668653e-01F, Lg2 = 4.0000000596e-01F, Lg3 = 2.8571429849e-01F,
                  Lg4 = 2.2222198546e-01F, Lg5 = 1.8183572590e-01F, Lg6 = 1.5313838422e-01F,
                  Lg7 = 1.4798198640e-01F;
  constexpr float two25 = 33554432.0F;
  constexpr float inf = std::numeric_limits<float>::infinity();
  const bool tiny = x < 1.17549435e-38F;
  const float y = tiny ? x * two25 : x;
  std::uint32_t ix;
  std::memcpy(&ix, &y, sizeof ix);
  const std::uint32_t mantissa = ix & 0x007fffffU;
  const std::uint32_t carry = (mantissa + (0x95f64U << 3U)) & 0x00800000U;
  const std::uint32_t m_bits = mantissa | (carry ^ 0x3f800000U);
  const std::uint32_t k_bits = 0x4b000000U | (((ix >> 23U) & 0xffU) + (carry >> 23U));
  float kf, m;
  std::memcpy(&kf, &k_bits, sizeof kf);
  std::memcpy(&m, &m_bits, sizeof m);
  const float k = kf - (8388608.0F + 127.0F) - (tiny ? 25.0F : 0.0F);
  const float f = m - 1.0F;
  const float hfsq = 0.5F * f * f;
  const float s = f / (2.0F + f);
  const float z = s * s;
  const float w = z * z;
  const float t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
  const float t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
  const float R = t2 + t1;
  float r = k * ln2_hi - ((hfsq - (s * (hfsq + R) + k * ln2_lo)) - f);
  r = x == 0.0F ? -inf : r;
  r = x < 0.0F ? std::numeric_limits<float>::quiet_NaN() : r;
  r = x == inf ? inf : r;
  return x != x ? x : r;
}

/// x^y in float32, as vpow: relative error about (2 + |y·log x|)·2⁻²⁴ plus vexpf's.
KEXP_VECTOR_INLINE float vpowf(float x, float y) {
  const float ax = x < 0.0F ? -x : x;
  float r = vexpf(y * vlogf(ax));
  constexpr float big = 8388608.0F;  // 2^23
  const float ay = y < 0.0F ? -y : y;
  const float whole = ay >= big ? ay : (ay + big) - big;
  const bool integer = whole == ay;
  const float half = 0.5F * ay;
  const float half_whole = half >= big ? half : (half + big) - big;
  const bool odd = integer && half_whole != half;
  r = x < 0.0F ? (integer ? (odd ? -r : r) : std::numeric_limits<float>::quiet_NaN()) : r;
  r = y == 0.0F ? 1.0F : r;
  return x == 1.0F ? 1.0F : r;
}

}  // namespace kexp
