// Reading the RedisBloom fixtures (tests/fixtures/redis/*.txt, captured from a live server by
// scripts/capture-redis-{bf,cf}.mjs): the helpers the BF and CF tests share.
#ifndef BLOOMCUCKOO_TESTS_CPP_REDIS_FIXTURES_H_
#define BLOOMCUCKOO_TESTS_CPP_REDIS_FIXTURES_H_

#include <dirent.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace bloomcuckoo {
namespace testing_util {

// Hex as the fixtures write bytes ("-" is empty).
inline std::vector<uint8_t> FromHex(const std::string& h) {
  std::vector<uint8_t> out;
  if (h == "-") return out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoul(h.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// Full paths of the fixture files whose names start with `prefix` ("bf-", "cf-"), sorted.
inline std::vector<std::string> RedisFixtureFiles(const std::string& prefix) {
  const std::string dir = BLOOMCUCKOO_FIXTURES_DIR "/redis";
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n.rfind(prefix, 0) == 0) names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  for (std::string& n : names) n = dir + "/" + n;
  return names;
}

}  // namespace testing_util
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_TESTS_CPP_REDIS_FIXTURES_H_
