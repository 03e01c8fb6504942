// Reading the text fixtures under tests/fixtures: their data lines and the hex they write bytes in.
#ifndef BLOOMCUCKOO_TESTS_CPP_FIXTURE_FILES_H_
#define BLOOMCUCKOO_TESTS_CPP_FIXTURE_FILES_H_

#include <cstdint>
#include <fstream>
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

// The lines of the file at `path` that hold data (neither empty nor a # comment), in order;
// false when the file cannot be opened.
inline bool ReadDataLines(const std::string& path, std::vector<std::string>* lines) {
  std::ifstream in(path);
  if (!in.good()) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') lines->push_back(line);
  }
  return true;
}

}  // namespace testing_util
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_TESTS_CPP_FIXTURE_FILES_H_
