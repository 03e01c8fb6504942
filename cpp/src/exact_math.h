// internal: the natural logarithm and exponential used by filter sizing, computed with IEEE-754
// basic operations only (+, -, *, /, exact scaling by powers of two). Those are correctly rounded
// on every conforming platform, so the same inputs give bit-identical results natively and in
// wasm; std::log / std::exp come from each platform's libm (glibc, Emscripten's musl) and may
// differ by an ulp, which at a ceil() boundary would give two builds different filter shapes.
// Accuracy: within a few ulps of the true value (tested against libm), ample for sizing.
// The file must not be compiled with floating-point contraction into FMA (CMake sets
// -ffp-contract=off), which would change the rounding of a * b + c on some targets.
#ifndef BLOOMCUCKOO_EXACT_MATH_H_
#define BLOOMCUCKOO_EXACT_MATH_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace bloomcuckoo {
namespace internal {

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^20 (Cody & Waite).
inline constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000
inline constexpr double kLn2Lo = 1.90821492927058770002e-10;  // 0x3DEA39EF35793C76

// x = m * 2^e with m in [1, 2), for finite x > 0, by reading the bits (subnormals normalised).
inline void SplitBinary(double x, double* m, int* e) {
  int shift = 0;
  if (x < 2.2250738585072014e-308) {  // subnormal: scale into the normal range exactly
    x *= 18014398509481984.0;         // 2^54
    shift = 54;
  }
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  *e = static_cast<int>((bits >> 52) & 0x7FF) - 1023 - shift;
  bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  std::memcpy(m, &bits, sizeof bits);
}

// 2^k as a double, exactly, for -1022 <= k <= 1023.
inline double PowerOfTwo(int k) {
  const uint64_t bits = static_cast<uint64_t>(k + 1023) << 52;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// Natural logarithm for finite x > 0 (NaN otherwise).
inline double ExactLog(double x) {
  if (!(x > 0) || x > 1.7976931348623157e308) return std::numeric_limits<double>::quiet_NaN();
  double m;
  int e;
  SplitBinary(x, &m, &e);
  if (m > 1.4142135623730951) {  // m in [sqrt(2)/2, sqrt(2)): |s| <= 0.1716
    m *= 0.5;
    ++e;
  }
  // ln m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), s = (m - 1) / (m + 1)
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double term = s;
  double sum = 0.0;
  double tail = 0.0;
  for (int k = 3; k <= 31; k += 2) {  // s^33 / 33 < 1e-26: far below an ulp of the result
    term *= s2;
    tail += term / k;
  }
  sum = s + tail;
  const double de = static_cast<double>(e);
  return (de * kLn2Hi + 2.0 * sum) + de * kLn2Lo;
}

// e^x for finite x; 0 below -745 (underflow), +inf above 709.8.
inline double ExactExp(double x) {
  if (x != x) return x;
  if (x < -745.2) return 0.0;
  if (x > 709.78) return std::numeric_limits<double>::infinity();
  // x = k ln 2 + r, |r| <= ln2 / 2; e^x = 2^k e^r
  const double kd = std::floor(x * 1.4426950408889634 + 0.5);
  const int k = static_cast<int>(kd);
  const double r = (x - kd * kLn2Hi) - kd * kLn2Lo;
  // Taylor series of e^r: |r| <= 0.347, r^25 / 25! < 1e-35
  double term = 1.0;
  double sum = 1.0;
  for (int n = 1; n <= 24; ++n) {
    term = term * r / n;
    sum += term;
  }
  // 2^k may be outside the normal range near the ends: scale in two exact steps.
  if (k < -1000) return sum * PowerOfTwo(k + 1000) * PowerOfTwo(-1000);
  if (k > 1000) return sum * PowerOfTwo(k - 1000) * PowerOfTwo(1000);
  return sum * PowerOfTwo(k);
}

// ---- correctly rounded natural logarithm ------------------------------------------------------
// RedisBloom sizes its filters with glibc's log(); glibc rounds log correctly for all but a tiny
// set of inputs, Emscripten's libm does not (one ulp off, e.g. at 0.0003125). CorrectLog computes
// ln x in double-double arithmetic (about 104 bits, built from +, -, *, / only: Dekker's
// products, no FMA) and rounds once, so both builds get the correctly rounded value.

struct DoubleDouble {
  double hi;
  double lo;
};

inline DoubleDouble TwoSum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
inline DoubleDouble FastTwoSum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}
inline void Split(double a, double* hi, double* lo) {
  const double c = 134217729.0 * a;  // 2^27 + 1
  *hi = c - (c - a);
  *lo = a - *hi;
}
inline DoubleDouble TwoProd(double a, double b) {
  const double p = a * b;
  double ah, al, bh, bl;
  Split(a, &ah, &al);
  Split(b, &bh, &bl);
  return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}
inline DoubleDouble DdAdd(DoubleDouble a, DoubleDouble b) {
  DoubleDouble s = TwoSum(a.hi, b.hi);
  s.lo += a.lo + b.lo;
  return FastTwoSum(s.hi, s.lo);
}
inline DoubleDouble DdMul(DoubleDouble a, DoubleDouble b) {
  DoubleDouble p = TwoProd(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return FastTwoSum(p.hi, p.lo);
}
inline DoubleDouble DdNeg(DoubleDouble a) { return {-a.hi, -a.lo}; }
inline DoubleDouble DdDiv(DoubleDouble a, DoubleDouble b) {
  const double q1 = a.hi / b.hi;
  DoubleDouble r = DdAdd(a, DdNeg(DdMul({q1, 0.0}, b)));
  const double q2 = r.hi / b.hi;
  r = DdAdd(r, DdNeg(DdMul({q2, 0.0}, b)));
  const double q3 = r.hi / b.hi;
  return DdAdd(FastTwoSum(q1, q2), {q3, 0.0});
}

// ln x, correctly rounded (to nearest), for finite x > 0; NaN otherwise.
inline double CorrectLog(double x) {
  if (!(x > 0) || x > 1.7976931348623157e308) return std::numeric_limits<double>::quiet_NaN();
  if (x == 1.0) return 0.0;
  double m;
  int e;
  SplitBinary(x, &m, &e);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    ++e;
  }
  // ln m = 2 atanh(s), s = (m - 1) / (m + 1); m - 1 is exact, m + 1 kept as a double-double.
  const DoubleDouble s = DdDiv({m - 1.0, 0.0}, TwoSum(m, 1.0));
  const DoubleDouble s2 = DdMul(s, s);
  DoubleDouble power = s;
  DoubleDouble sum = s;
  for (int k = 3; k <= 61; k += 2) {  // |s| <= 0.1716: s^63 / 63 < 2^-166
    power = DdMul(power, s2);
    sum = DdAdd(sum, DdDiv(power, {static_cast<double>(k), 0.0}));
  }
  const DoubleDouble ln_m = {2.0 * sum.hi, 2.0 * sum.lo};
  // ln 2 = kLn2DdHi + kLn2DdLo to about 107 bits.
  constexpr double kLn2DdHi = 6.93147180559945286227e-01;  // 0x3FE62E42FEFA39EF
  constexpr double kLn2DdLo = 2.31904681384629955842e-17;  // 0x3C7ABC9E3B39803F
  const DoubleDouble e_ln2 = DdMul({static_cast<double>(e), 0.0}, {kLn2DdHi, kLn2DdLo});
  const DoubleDouble r = DdAdd(e_ln2, ln_m);
  return r.hi + r.lo;
}

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_EXACT_MATH_H_
