// RedisBloomFilter: RedisBloom's BF chain, written from its documented behaviour and the bytes
// its server produces (see the header); no RedisBloom code is used.
#include "bloomcuckoo/redis_bloom_filter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "bloomcuckoo/murmur2.h"
#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "exact_math.h"
#include "filter_base_impl.h"
#include "frame.h"
#include "redis_dump.h"

namespace bloomcuckoo {
namespace {

// Constants as RedisBloom spells them (its libbloom): ln(2)^2 and ln(2), truncated.
constexpr double kLn2Squared = 0.480453013918201;
constexpr double kLn2 = 0.693147180559945;
constexpr uint64_t kHashSeed = 0xc6a4a7935bd1e995ull;
constexpr double kErrorTightening = 0.5;
// Sizes RedisBloom reports in BF.INFO "Size" for its chain and link structs (x86-64).
constexpr uint64_t kInfoChainBytes = 32;
constexpr uint64_t kInfoLinkBytes = 64;
// The most probes per key any RedisBloom link can have: its error rates halve link by link until
// they underflow to 0 (then BF.ADD fails), and the smallest positive double gives
// ceil(ln 2 * -log(4.9e-324) / ln(2)^2) = 1075 (computed below, so it follows BitsPerEntry). A
// dump may not describe more: it bounds the work of a lookup in a filter read from untrusted bytes.
uint32_t MaxServerHashes();
// The most links a chain may have (each is expansion times larger than the last, so real chains
// stay far below; bounds a dump header read from untrusted bytes).
constexpr uint32_t kMaxLinks = 4096;

// RedisBloom computes this with the platform's log() (glibc on its servers). CorrectLog is the
// correctly rounded value, the same natively and in wasm; glibc's differs from it only for inputs
// within ~0.02 ulp of a rounding midpoint (one error rate in 3,200 realistic chain links,
// 2.34375e-9, measured), where the stored bpe then differs in its last bit.
double BitsPerEntry(double error) {
  double bpe = -(internal::CorrectLog(error) / kLn2Squared);
  return bpe < 0 ? -bpe : bpe;
}

uint32_t HashesFor(double bpe) { return static_cast<uint32_t>(std::ceil(kLn2 * bpe)); }

uint32_t MaxServerHashes() {
  static const uint32_t max = HashesFor(BitsPerEntry(std::numeric_limits<double>::denorm_min()));
  return max;
}

Status Corrupt(const char* what) { return Status(StatusCode::kCorruptData, what); }

template <typename L>
bool IsEmptyLink(const L& l) {
  return l.bytes == 0 && l.bits == 0 && l.size == 0 && l.error == 0 && l.bpe == 0 &&
         l.hashes == 0 && l.entries == 0 && l.n2 == 0;
}

double ReadF64(const uint8_t* p) {
  const uint64_t bits = internal::LoadLE(p, 8);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
void WriteF64(uint8_t* p, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  internal::StoreLE(p, bits, 8);
}

}  // namespace

RedisBfHashing::Hash RedisBfHashing::Of(const void* key, size_t len, uint32_t /*seed*/) {
  const uint64_t a = MurmurHash64A(key, len, kHashSeed);
  return Hash{a, MurmurHash64A(key, len, a)};
}

Status RedisBloomFilter::InitLink(Link* link, uint64_t entries, double error, uint32_t options) {
  if (entries < 1 || !(error > 0 && error < 1)) {
    // RedisBloom's BF.ADD replies "ERR problem inserting into filter" when a new link's error
    // rate has underflowed to 0 (after about 1,075 links) or its capacity wrapped to 0.
    return Status(StatusCode::kInvalidArgument,
                  "problem inserting into filter: a new link needs capacity >= 1 and an error rate "
                  "in (0, 1)");
  }
  Link l;
  l.error = error;
  l.entries = entries;
  l.bpe = BitsPerEntry(error);
  const double want = static_cast<double>(entries) * l.bpe;
  if (!(want < 9.0e18)) return Status(StatusCode::kOutOfMemory, "filter too large to allocate");
  uint64_t bits = 0;
  if (options & kOptNoRound) {
    bits = static_cast<uint64_t>(want);
    if (bits == 0) {
      // RedisBloom 2.6 makes a 0-bit filter here, whose first BF.ADD divides by zero.
      return Status(
          StatusCode::kInvalidArgument,
          "capacity * bits per entry is below 1: RedisBloom would make a filter of 0 bits");
    }
    l.n2 = 0;
  } else {
    // Power-of-two filters (RedisBloom without NOROUND): 2^(floor(log2(want)) + 1) bits, and the
    // spare bits raise the entries.
    const int exp2 = std::ilogb(want);
    if (exp2 >= 63 || exp2 < 0) return Status(StatusCode::kOutOfMemory, "filter too large");
    l.n2 = static_cast<uint8_t>(exp2 + 1);
    bits = uint64_t{1} << l.n2;
    const uint64_t spare = static_cast<uint64_t>(static_cast<double>(bits) - want);
    l.entries += static_cast<uint64_t>(static_cast<double>(spare) / l.bpe);
  }
  l.bytes = bits % 64 ? (bits / 64 + 1) * 8 : bits / 8;
  l.bits = l.bytes * 8;
  l.hashes = HashesFor(l.bpe);
  BLOOMCUCKOO_RETURN_IF_ERROR(l.data.Allocate(l.bytes));
  *link = std::move(l);
  return Status::Ok();
}

Status RedisBloomFilter::Init(const RedisBloomOptions& options) {
  const RedisServerRules* server = RedisServerRulesOf(options.server);
  if (server == nullptr) return Status(StatusCode::kInvalidArgument, "unknown server");
  if (options.capacity < 1 || options.capacity > server->max_capacity ||
      options.expansion < server->min_expansion || options.expansion > server->max_expansion) {
    return Status(StatusCode::kInvalidArgument, server->limits);
  }
  if (!(options.error_rate > 0 && options.error_rate < 1)) {
    return Status(StatusCode::kInvalidArgument, "errorRate must be a number between 0 and 1");
  }
  // nonScaling with an expansion is what BF.INSERT ... EXPANSION e NONSCALING makes (only
  // BF.RESERVE refuses the pair): the expansion is stored and never used. Expansion 0, where the
  // server takes it, means NONSCALING (stored as 0).
  const bool non_scaling = options.non_scaling || options.expansion == 0;
  RedisBloomFilter tmp;
  tmp.options_ = kOptNoRound | kOptForce64 | (non_scaling ? kOptNoScaling : 0);
  tmp.growth_ = options.expansion;
  tmp.server_ = options.server;
  Link first;
  const double rate = std::min(options.error_rate, server->max_error_rate);
  const double error = rate * (non_scaling ? 1.0 : kErrorTightening);
  BLOOMCUCKOO_RETURN_IF_ERROR(InitLink(&first, options.capacity, error, tmp.options_));
  tmp.links_.push_back(std::move(first));
  *this = std::move(tmp);
  return Status::Ok();
}

Status RedisBloomFilter::set_server(RedisServer server) {
  if (RedisServerRulesOf(server) == nullptr) {
    return Status(StatusCode::kInvalidArgument, "unknown server");
  }
  server_ = server;
  return Status::Ok();
}

void RedisBloomFilter::Clear() {
  if (links_.empty()) return;
  links_.resize(1);
  links_[0].data.Clear();
  links_[0].size = 0;
  size_ = 0;
}

bool RedisBloomFilter::LinkContains(const Link& link, Hash h) {
  const uint8_t* bf = link.data.data();
  if (link.n2 > 0) {
    const uint64_t mask = (uint64_t{1} << link.n2) - 1;
    for (uint64_t i = 0; i < link.hashes; ++i) {
      const uint64_t x = (h.a + i * h.b) & mask;
      if (!(bf[x >> 3] & (1u << (x & 7)))) return false;
    }
    return true;
  }
  for (uint64_t i = 0; i < link.hashes; ++i) {
    const uint64_t x = (h.a + i * h.b) % link.bits;
    if (!(bf[x >> 3] & (1u << (x & 7)))) return false;
  }
  return true;
}

bool RedisBloomFilter::LinkAdd(Link* link, Hash h) {
  uint8_t* bf = link->data.data();
  bool changed = false;
  for (uint64_t i = 0; i < link->hashes; ++i) {
    const uint64_t v = h.a + i * h.b;
    const uint64_t x = link->n2 > 0 ? v & ((uint64_t{1} << link->n2) - 1) : v % link->bits;
    const uint8_t bit = static_cast<uint8_t>(1u << (x & 7));
    if (!(bf[x >> 3] & bit)) {
      bf[x >> 3] |= bit;
      changed = true;
    }
  }
  return changed;
}

bool RedisBloomFilter::Contains(Hash h) const {
  for (size_t i = links_.size(); i-- > 0;) {
    if (LinkContains(links_[i], h)) return true;
  }
  return false;
}

Status RedisBloomFilter::Add(Hash h, bool* added) {
  *added = false;
  if (links_.empty()) return Status(StatusCode::kInvalidArgument, "filter is not initialised");
  if (Contains(h)) return Status::Ok();
  Link* cur = &links_.back();
  if (cur->size >= cur->entries) {
    if (options_ & kOptNoScaling) {
      return Status(StatusCode::kFull, "non scaling filter is full");
    }
    if (links_.size() >= kMaxLinks) return Status(StatusCode::kFull, "too many links");
    // RedisBloom multiplies in 64-bit unsigned arithmetic (wrapping); so do we.
    const uint64_t entries = cur->entries * static_cast<uint64_t>(growth_);
    Link next;
    const Status grown = InitLink(&next, entries, cur->error * kErrorTightening, options_);
    if (grown.code() == StatusCode::kInvalidArgument) {
      // RedisBloom 2.x counts the link before making it: the failed one stays, all zeros.
      if (RedisServerRulesOf(server_)->keeps_failed_link) links_.emplace_back();
      return Status(StatusCode::kFull, grown.message());
    }
    BLOOMCUCKOO_RETURN_IF_ERROR(grown);
    links_.push_back(std::move(next));
    cur = &links_.back();
  }
  if (LinkAdd(cur, h)) {
    ++cur->size;
    ++size_;
    *added = true;
  }
  return Status::Ok();
}

Status RedisBloomFilter::AddBatch(const KeyBatch& keys, uint8_t* out, size_t* processed) {
  *processed = 0;
  for (size_t i = 0; i < keys.count; ++i) {
    bool added = false;
    BLOOMCUCKOO_RETURN_IF_ERROR(Add(HashOf(keys.key(i), keys.length(i)), &added));
    out[i] = added ? 1 : 0;
    *processed = i + 1;
  }
  return Status::Ok();
}

void RedisBloomFilter::ContainsBatch(const KeyBatch& keys, uint8_t* out) const {
  for (size_t i = 0; i < keys.count; ++i) {
    out[i] = Contains(HashOf(keys.key(i), keys.length(i))) ? 1 : 0;
  }
}

uint64_t RedisBloomFilter::capacity() const {
  uint64_t n = 0;
  for (const Link& l : links_) n += l.entries;
  return n;
}

uint64_t RedisBloomFilter::info_size() const {
  uint64_t n = kInfoChainBytes;
  for (const Link& l : links_) n += kInfoLinkBytes + l.bytes;
  return n;
}

size_t RedisBloomFilter::byte_length() const {
  size_t n = 0;
  for (const Link& l : links_) n += static_cast<size_t>(l.bytes);
  return n;
}

void RedisBloomFilter::WriteDumpHeader(uint8_t* out) const {
  internal::StoreLE(out, size_, 8);
  internal::StoreLE(out + 8, links_.size(), 4);
  internal::StoreLE(out + 12, options_, 4);
  internal::StoreLE(out + 16, growth_, 4);
  uint8_t* p = out + kDumpHeaderBytes;
  for (const Link& l : links_) {
    internal::StoreLE(p, l.bytes, 8);
    internal::StoreLE(p + 8, l.bits, 8);
    internal::StoreLE(p + 16, l.size, 8);
    WriteF64(p + 24, l.error);
    WriteF64(p + 32, l.bpe);
    internal::StoreLE(p + 40, l.hashes, 4);
    internal::StoreLE(p + 44, l.entries, 8);
    p[52] = l.n2;
    p += kDumpLinkBytes;
  }
}

Status RedisBloomFilter::ParseHeader(const uint8_t* header, size_t len, std::vector<Link>* links,
                                     uint64_t* size, uint32_t* options, uint32_t* growth) const {
  if (len < kDumpHeaderBytes) return Corrupt("not a RedisBloom BF dump: header too short");
  *size = internal::LoadLE(header, 8);
  const uint64_t nfilters = internal::LoadLE(header + 8, 4);
  *options = static_cast<uint32_t>(internal::LoadLE(header + 12, 4));
  *growth = static_cast<uint32_t>(internal::LoadLE(header + 16, 4));
  if (nfilters == 0 || nfilters > kMaxLinks ||
      len != kDumpHeaderBytes + kDumpLinkBytes * nfilters) {
    return Corrupt("not a RedisBloom BF dump: header length does not match its filter count");
  }
  if (*options & ~(kOptNoRound | kOptEntriesAreBits | kOptForce64 | kOptNoScaling)) {
    return Corrupt("not a RedisBloom BF dump: unknown options");
  }
  if (!(*options & kOptForce64)) {
    return Corrupt(
        "RedisBloom BF dump with 32-bit hashes (filters from before RedisBloom 2.0) "
        "is not supported");
  }
  if (*growth < 1 && !(*options & kOptNoScaling)) {
    return Corrupt("corrupt RedisBloom BF dump: expansion 0");
  }
  links->clear();
  links->resize(static_cast<size_t>(nfilters));
  uint64_t total = 0;
  const uint8_t* p = header + kDumpHeaderBytes;
  for (uint64_t i = 0; i < nfilters; ++i, p += kDumpLinkBytes) {
    Link& l = (*links)[static_cast<size_t>(i)];
    l.bytes = internal::LoadLE(p, 8);
    l.bits = internal::LoadLE(p + 8, 8);
    l.size = internal::LoadLE(p + 16, 8);
    l.error = ReadF64(p + 24);
    l.bpe = ReadF64(p + 32);
    l.hashes = static_cast<uint32_t>(internal::LoadLE(p + 40, 4));
    l.entries = internal::LoadLE(p + 44, 8);
    l.n2 = p[52];
    // The empty link RedisBloom 2.x leaves when it cannot make one (see Add): all zeros, last.
    if (i + 1 == nfilters && i > 0 && IsEmptyLink(l)) continue;
    // RedisBloom's own checks, then ours (bounded work per lookup, sizes that fit).
    if (!(l.error > 0 && l.error < 1) || l.n2 > 63 ||
        (l.n2 != 0 && l.bits < (uint64_t{1} << l.n2)) || l.bits == 0 ||
        l.bytes > std::numeric_limits<uint64_t>::max() / 8 || l.bits != l.bytes * 8 ||
        !(l.bpe > 0 && l.bpe < 1e6) || l.hashes != HashesFor(l.bpe) || l.hashes == 0 ||
        l.hashes > MaxServerHashes() || l.entries == 0) {
      return Corrupt("corrupt RedisBloom BF dump: a filter's parameters are inconsistent");
    }
    if (l.size > std::numeric_limits<uint64_t>::max() - total) {
      return Corrupt("corrupt RedisBloom BF dump: item counts overflow");
    }
    total += l.size;
  }
  if (total != *size) {
    return Corrupt("corrupt RedisBloom BF dump: item count disagrees with its filters");
  }
  return Status::Ok();
}

Status RedisBloomFilter::LoadDumpHeader(const uint8_t* header, size_t len, uint64_t data_bytes) {
  std::vector<Link> links;
  uint64_t size = 0;
  uint32_t options = 0, growth = 0;
  BLOOMCUCKOO_RETURN_IF_ERROR(ParseHeader(header, len, &links, &size, &options, &growth));
  uint64_t total = 0;
  for (const Link& l : links) {
    if (l.bytes > data_bytes - total || total > data_bytes) {
      return Corrupt("RedisBloom BF dump: the data chunks are shorter than its header says");
    }
    total += l.bytes;
  }
  if (total != data_bytes) {
    return Corrupt("RedisBloom BF dump: the data chunks are longer than its header says");
  }
  for (Link& l : links) {
    Status s = l.data.Allocate(l.bytes);
    if (!s.ok()) return s;
  }
  RedisBloomFilter tmp;
  tmp.links_ = std::move(links);
  tmp.size_ = size;
  tmp.options_ = options;
  tmp.growth_ = growth;
  tmp.load_next_ = 0;
  *this = std::move(tmp);
  return Status::Ok();
}

uint8_t* RedisBloomFilter::DumpChunkTarget(uint64_t iterator, size_t len, Status* status) {
  static constexpr internal::DumpChunkFaults kFaults{
      "RedisBloom BF dump: data chunks missing, repeated or out of order",
      "RedisBloom BF dump: a data chunk spans two filters",
      "RedisBloom BF dump: a data chunk runs past the filters"};
  return internal::DumpChunkTarget(
      links_, [](const Link& l) { return l.bytes; }, iterator, len, &load_next_, &load_part_,
      &load_part_start_, kFaults, status);
}

Status RedisBloomFilter::FinishDumpLoad() const {
  if (load_next_ != byte_length()) {
    return Corrupt("RedisBloom BF dump: truncated (data chunks missing)");
  }
  return Status::Ok();
}

// Our format (kind 7): the body is RedisBloom's dump header followed by every link's bitmap.
size_t RedisBloomFilter::BodySize() const { return DumpHeaderSize() + byte_length(); }

void RedisBloomFilter::WriteBody(internal::ByteWriter& w) const {
  const size_t header = DumpHeaderSize();
  std::vector<uint8_t> head(header);
  WriteDumpHeader(head.data());
  w.Bytes(head.data(), header);
  for (const Link& l : links_) {
    w.Bytes(l.data.data(), static_cast<size_t>(l.bytes));
  }
}

Status RedisBloomFilter::ReadBody(internal::ByteReader& body, const internal::FrameInfo& info) {
  if (info.seed != 0)
    return Corrupt("corrupt redis-bloom filter: RedisBloom hashes have no seed (must be 0)");
  std::vector<uint8_t> head(kDumpHeaderBytes);
  if (!body.Read(head.data(), kDumpHeaderBytes))
    return Corrupt("corrupt redis-bloom filter: truncated");
  const uint64_t nfilters = internal::LoadLE(head.data() + 8, 4);
  if (nfilters == 0 || nfilters > kMaxLinks || body.remaining() < kDumpLinkBytes * nfilters) {
    return Corrupt("corrupt redis-bloom filter: bad filter count");
  }
  const size_t header_len = kDumpHeaderBytes + static_cast<size_t>(kDumpLinkBytes * nfilters);
  head.resize(header_len);
  body.Read(head.data() + kDumpHeaderBytes, header_len - kDumpHeaderBytes);
  BLOOMCUCKOO_RETURN_IF_ERROR(LoadDumpHeader(head.data(), header_len, body.remaining()));
  for (Link& l : links_) {
    if (!body.Read(l.data.data(), static_cast<size_t>(l.bytes))) {
      return Corrupt("corrupt redis-bloom filter: truncated");
    }
  }
  load_next_ = byte_length();
  if (!body.AtEnd()) return Corrupt("corrupt redis-bloom filter: trailing bytes");
  return Status::Ok();
}

template class internal::FilterBase<RedisBloomFilter, internal::RedisBloomFields>;

}  // namespace bloomcuckoo
