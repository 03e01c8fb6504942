// Reading the text fixtures under tests/fixtures (their data lines, the hex they write bytes in)
// and the golden recipes of the kinds' test files (tests/kinds).
#ifndef BLOOMCUCKOO_TESTS_CPP_FIXTURE_FILES_H_
#define BLOOMCUCKOO_TESTS_CPP_FIXTURE_FILES_H_

#include <algorithm>
#include <cstdint>
#include <filesystem>
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

// The golden recipes (one a line: <file> <kind> <option=value>... n=<keys> [remove=<keys>]) of
// each kind's test file tests/kinds/<name>.mjs, by file name: they stand one a line between
// "export const golden = `" and the closing backquote (tests/js/kind-files.js reads them the same
// way and documents the format).
inline std::vector<std::string> GoldenRecipeLines(const std::string& fixtures) {
  std::vector<std::string> lines;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(fixtures + "/../kinds")) {
    if (e.path().extension() == ".mjs") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  const std::string open = "export const golden = `";
  for (const auto& path : files) {
    std::ifstream in(path);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
      if (!inside) {
        inside = line.rfind(open, 0) == 0;
        if (inside) line = line.substr(open.size());
      }
      if (!inside) continue;
      const size_t close = line.find('`');
      const std::string recipe = line.substr(0, close);
      if (recipe.find_first_not_of(' ') != std::string::npos) lines.push_back(recipe);
      if (close != std::string::npos) break;
    }
  }
  return lines;
}

}  // namespace testing_util
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_TESTS_CPP_FIXTURE_FILES_H_
