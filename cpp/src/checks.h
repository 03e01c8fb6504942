// Small checks every filter makes on its options and on untrusted bytes: one definition each.
#ifndef BLOOMCUCKOO_CHECKS_H_
#define BLOOMCUCKOO_CHECKS_H_

#include <cstdint>

namespace bloomcuckoo {
namespace internal {

// An error rate in (0, 1); false for NaN too.
inline bool ValidErrorRate(double p) { return p > 0.0 && p < 1.0; }

inline bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_CHECKS_H_
