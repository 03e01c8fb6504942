#include "bloomcuckoo/status.h"

namespace bloomcuckoo {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kFull:
      return "FULL";
    case StatusCode::kOutOfMemory:
      return "OUT_OF_MEMORY";
    case StatusCode::kCorruptData:
      return "CORRUPT_DATA";
    case StatusCode::kUnsupportedVersion:
      return "UNSUPPORTED_VERSION";
  }
  return "UNKNOWN";
}

}  // namespace bloomcuckoo
