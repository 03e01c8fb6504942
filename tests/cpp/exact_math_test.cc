#include "exact_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

namespace bloomcuckoo {
namespace {

// Distance in ulps between two finite doubles of the same sign.
int64_t Ulps(double a, double b) {
  int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  return ia > ib ? ia - ib : ib - ia;
}

TEST(ExactMath, LogIsWithinFourUlpsOfLibm) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> exponent(-300.0, 300.0);
  int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = std::pow(10.0, exponent(rng));
    if (std::fabs(x - 1.0) < 1e-3) continue;  // ln x near 0: relative ulps are not meaningful
    worst = std::max(worst, Ulps(internal::ExactLog(x), std::log(x)));
  }
  EXPECT_LE(worst, 4);
  for (double x : {0.5, 0.1, 0.01, 0.001, 1e-6, 1e-12, 2.0, 10.0, 1e300, 5e-324, 2.2250738585072014e-308}) {
    EXPECT_LE(Ulps(internal::ExactLog(x), std::log(x)), 4) << x;
  }
  EXPECT_EQ(internal::ExactLog(1.0), 0.0);
  EXPECT_TRUE(std::isnan(internal::ExactLog(0.0)));
  EXPECT_TRUE(std::isnan(internal::ExactLog(-1.0)));
  EXPECT_TRUE(std::isnan(internal::ExactLog(std::nan(""))));
}

TEST(ExactMath, ExpIsWithinFourUlpsOfLibm) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> arg(-700.0, 700.0);
  int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = arg(rng);
    worst = std::max(worst, Ulps(internal::ExactExp(x), std::exp(x)));
  }
  EXPECT_LE(worst, 4);
  for (double x : {0.0, 1.0, -1.0, 0.5, -0.5, 20.0, -20.0, -745.0, 709.0}) {
    EXPECT_LE(Ulps(internal::ExactExp(x), std::exp(x)), 4) << x;
  }
  EXPECT_EQ(internal::ExactExp(0.0), 1.0);
  EXPECT_EQ(internal::ExactExp(-800.0), 0.0);
  EXPECT_TRUE(std::isinf(internal::ExactExp(800.0)));
}

}  // namespace
}  // namespace bloomcuckoo
