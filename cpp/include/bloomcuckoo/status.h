// Status: the result of every fallible bloomcuckoo call. No exceptions are used anywhere.
#ifndef BLOOMCUCKOO_STATUS_H_
#define BLOOMCUCKOO_STATUS_H_

#include <cstdint>

namespace bloomcuckoo {

enum class StatusCode : uint8_t {
  kOk = 0,               // the call did what it was asked
  kInvalidArgument = 1,  // a parameter is out of range or inconsistent (message names it)
  kFull = 2,             // the filter cannot take more items and may not grow
  // 3 is unused (no operation reports a missing item as an error: remove/has return false)
  kOutOfMemory = 4,         // an allocation failed or a size overflowed; nothing was changed
  kCorruptData = 5,         // serialized bytes are truncated, inconsistent or fail the checksum
  kUnsupportedVersion = 6,  // serialized bytes come from a format version this build cannot read
};

// A code plus a static message (a string literal: never freed, never owned).
class [[nodiscard]] Status {
 public:
  constexpr Status() : code_(StatusCode::kOk), message_("ok") {}
#ifdef BLOOMCUCKOO_STATUS_CODES_ONLY
  // The read-only checker's build (cpp/checker): codes without their messages, so the linker
  // drops every message string; its JS names the code instead.
  constexpr Status(StatusCode code, const char*) : code_(code), message_("") {}
#else
  constexpr Status(StatusCode code, const char* message) : code_(code), message_(message) {}
#endif

  static constexpr Status Ok() { return Status(); }
  constexpr bool ok() const { return code_ == StatusCode::kOk; }
  constexpr StatusCode code() const { return code_; }
  // A human-readable sentence; names the offending parameter where there is one.
  constexpr const char* message() const { return message_; }

 private:
  StatusCode code_;
  const char* message_;
};

}  // namespace bloomcuckoo

// Returns early from the enclosing function when `expr` is not ok.
#define BLOOMCUCKOO_RETURN_IF_ERROR(expr)                      \
  do {                                                         \
    ::bloomcuckoo::Status bloomcuckoo_status_ = (expr);        \
    if (!bloomcuckoo_status_.ok()) return bloomcuckoo_status_; \
  } while (0)

#endif  // BLOOMCUCKOO_STATUS_H_
