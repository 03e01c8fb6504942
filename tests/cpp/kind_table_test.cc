// The kind table (BLOOMCUCKOO_FILTER_KINDS, generated from js/shared/kind-table.js) against
// everything that dispatches on a kind: a row whose class, name, hash id, golden file, fuzz seed or
// spec section is missing fails here, at compile time where it can.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bloomcuckoo/bloomcuckoo.h"
#include "fixture_files.h"

namespace bloomcuckoo {
namespace {

// Each row's class knows its row, and hashes as the row says its bytes do.
#define BLOOMCUCKOO_CHECK_ROW(number, enumerator, name, cls, hash_id)                          \
  static_assert(cls::kKind == FilterKind::enumerator, #cls "::kKind is not its row's kind");   \
  static_assert(cls::KeyHashing::kId == hash_id, #cls "'s hash policy is not its row's hash"); \
  static_assert(static_cast<int>(FilterKind::enumerator) == number, #enumerator);
BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_CHECK_ROW)
#undef BLOOMCUCKOO_CHECK_ROW

struct Row {
  int number;
  FilterKind kind;
  std::string name;
  uint8_t hash_id;
};

std::vector<Row> Rows() {
  return {
#define BLOOMCUCKOO_ROW(number, enumerator, name, cls, hash_id) \
  Row{number, FilterKind::enumerator, name, hash_id},
      BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_ROW)
#undef BLOOMCUCKOO_ROW
  };
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kFixtures = BLOOMCUCKOO_FIXTURES_DIR;

TEST(KindTable, NumbersAndNamesAreDistinctAndTheFrameKnowsEachRow) {
  std::set<int> numbers;
  std::set<std::string> names;
  for (const Row& r : Rows()) {
    EXPECT_TRUE(numbers.insert(r.number).second) << r.number;
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_EQ(FilterKindName(r.kind), r.name);
    EXPECT_TRUE(IsFilterKind(static_cast<uint8_t>(r.number))) << r.name;
    EXPECT_EQ(FilterKindHashId(static_cast<uint8_t>(r.number)), r.hash_id) << r.name;
  }
  EXPECT_FALSE(IsFilterKind(0));
  EXPECT_FALSE(IsFilterKind(static_cast<uint8_t>(*numbers.rbegin() + 1)));
}

TEST(KindTable, EveryKindHasAGoldenFile) {
  std::set<std::string> kinds;
  for (const std::string& line : testing_util::GoldenRecipeLines(kFixtures)) {
    std::istringstream fields(line);
    std::string file, kind;
    fields >> file >> kind;
    kinds.insert(kind);
  }
  for (const Row& r : Rows()) {
    EXPECT_EQ(kinds.count(r.name), 1u)
        << "no golden file of kind " << r.name << ": give tests/kinds/" << r.name
        << ".mjs its recipe (export const golden) and run scripts/gen-golden.mjs";
  }
}

// The fuzzer starts from tests/fuzz/corpus and the golden files (tests/fuzz/run-fuzz.mjs gives
// libFuzzer both folders), so a kind's golden file is its seed when the corpus has none.
TEST(KindTable, EveryKindHasAFuzzSeed) {
  std::set<int> seeded;
  for (const std::string dir : {"/../fuzz/corpus", "/golden"}) {
    for (const auto& entry : std::filesystem::directory_iterator(kFixtures + dir)) {
      std::ifstream in(entry.path(), std::ios::binary);
      char head[7] = {};
      if (in.read(head, sizeof head) && std::string(head, 4) == "BCFL")
        seeded.insert(static_cast<uint8_t>(head[6]));
    }
  }
  for (const Row& r : Rows()) {
    EXPECT_EQ(seeded.count(r.number), 1u)
        << "no fuzz seed of kind " << r.name << ": give tests/kinds/" << r.name
        << ".mjs its golden recipe (export const golden) and run scripts/gen-golden.mjs";
  }
}

TEST(KindTable, EveryKindHasASectionInTheSpec) {
  const std::string spec = ReadText(kFixtures + "/../../docs/FORMAT.md");
  ASSERT_FALSE(spec.empty());
  for (const Row& r : Rows()) {
    EXPECT_NE(spec.find("## Body of kind " + std::to_string(r.number) + ":"), std::string::npos)
        << r.name;
    EXPECT_NE(spec.find(std::to_string(r.number) + " " + r.name), std::string::npos)
        << "the frame's kind list in docs/FORMAT.md misses " << r.name;
  }
}

}  // namespace
}  // namespace bloomcuckoo
