// The Redis servers whose BF/CF rules the RedisBloom-compatible classes follow, one row each:
// every place RedisBloomFilter or RedisCuckooFilter behaves differently per server reads its row
// here, so another server (a later RedisBloom, another engine's bloom type) is one more row. Rows
// are numbered from 0 in order; row 0 is the default. js/main/options.js names the rows
// (REDIS_SERVERS, the `server` option) in the same order; tests/js/redis-server-limits.test.js
// checks the names against these rows and that no other file decides anything per server.
//
// Columns:
//  - name: the `server` option's value.
//  - max_capacity: the most BF.RESERVE / CF.RESERVE capacity the server takes (~0: no limit but
//    memory).
//  - min_expansion, max_expansion: BF EXPANSION's range (0, when allowed, means NONSCALING).
//  - max_error_rate: a BF's error rate above it is lowered to it at creation.
//  - keeps_failed_link: when a BF chain cannot make its next link (the error rate has underflowed
//    to 0), whether the server keeps an empty link of zeros (after which every key reads present).
//  - limits: the message of a capacity or expansion outside the row's limits (a Status message
//    is a literal); tests/js/redis-server-limits.test.js checks that it states the row's numbers.
// Measured: RedisBloom 2.6.12 on Redis 7.0 ('2.6'); RedisBloom 8.9.80 on Redis 7.4, the bloom
// module of Redis 8 ('8'), whose BF.RESERVE caps the error rate at 0.25, refuses a capacity over
// 2^30 and an EXPANSION over 32768, and reads EXPANSION 0 as NONSCALING.
#ifndef BLOOMCUCKOO_REDIS_SERVER_H_
#define BLOOMCUCKOO_REDIS_SERVER_H_

#include <cstddef>
#include <cstdint>

namespace bloomcuckoo {

// X(name, max_capacity, min_expansion, max_expansion, max_error_rate, keeps_failed_link, limits)
#define BLOOMCUCKOO_REDIS_SERVERS(X)                           \
  X("2.6", ~uint64_t{0}, 1, 2147483647u, 1.0, true,            \
    "server '2.6' takes capacity >= 1, expansion 1 to 2^31-1") \
  X("8", uint64_t{1} << 30, 0, 32768u, 0.25, false,            \
    "server '8' takes capacity 1 to 2^30, expansion 0 to 32768")

struct RedisServerRules {
  const char* name;
  uint64_t max_capacity;
  uint32_t min_expansion;
  uint32_t max_expansion;
  double max_error_rate;
  bool keeps_failed_link;
  const char* limits;
};

inline constexpr RedisServerRules kRedisServers[] = {
#define BLOOMCUCKOO_REDIS_SERVER_ROW(name, max_capacity, min_expansion, max_expansion, \
                                     max_error_rate, keeps_failed_link, limits)        \
  {name, max_capacity, min_expansion, max_expansion, max_error_rate, keeps_failed_link, limits},
    BLOOMCUCKOO_REDIS_SERVERS(BLOOMCUCKOO_REDIS_SERVER_ROW)
#undef BLOOMCUCKOO_REDIS_SERVER_ROW
};
inline constexpr size_t kRedisServerCount = sizeof(kRedisServers) / sizeof(kRedisServers[0]);

// A row of kRedisServers (0 is the default).
using RedisServer = uint8_t;

// The rules of `server`, or null when it is not a row.
constexpr const RedisServerRules* RedisServerRulesOf(RedisServer server) {
  return server < kRedisServerCount ? &kRedisServers[server] : nullptr;
}

// The row named `name`, or kRedisServerCount when there is none.
constexpr RedisServer RedisServerNamed(const char* name) {
  for (size_t i = 0; i < kRedisServerCount; ++i) {
    const char* a = kRedisServers[i].name;
    const char* b = name;
    while (*a != '\0' && *a == *b) ++a, ++b;
    if (*a == *b) return static_cast<RedisServer>(i);
  }
  return static_cast<RedisServer>(kRedisServerCount);
}

// Every row is whole and consistent: a capacity, an expansion range that holds 2 (the default),
// an error-rate cap in (0, 1].
constexpr bool RedisServerRowsValid() {
  for (const RedisServerRules& r : kRedisServers) {
    if (r.name == nullptr || r.name[0] == '\0' || r.limits == nullptr || r.max_capacity < 1 ||
        r.min_expansion > 2 || r.max_expansion < 2 ||
        !(r.max_error_rate > 0 && r.max_error_rate <= 1)) {
      return false;
    }
  }
  return true;
}
static_assert(RedisServerRowsValid(), "a row of BLOOMCUCKOO_REDIS_SERVERS is incomplete");

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_REDIS_SERVER_H_
