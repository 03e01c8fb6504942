// internal (not part of the API): the move operations of every filter. A moved-from filter is
// left exactly as its default constructor makes it (un-initialised: Contains() is false, no
// storage), never with the shape of the filter it gave its storage to.
#ifndef BLOOMCUCKOO_INTERNAL_MOVE_H_
#define BLOOMCUCKOO_INTERNAL_MOVE_H_

#include <new>
#include <utility>

namespace bloomcuckoo {
namespace internal {

// Re-creates `obj` as a default-constructed T. The move constructors call it on their source
// after taking its members.
template <typename T>
void ResetToDefault(T& obj) noexcept {
  obj.~T();
  ::new (static_cast<void*>(&obj)) T();
}

// Move assignment in terms of the move constructor: frees what `self` held, takes `other`'s
// state, and leaves `other` default-constructed. Self-assignment does nothing.
template <typename T>
T& MoveAssign(T& self, T&& other) noexcept {
  if (&self != &other) {
    self.~T();
    ::new (static_cast<void*>(&self)) T(std::move(other));
  }
  return self;
}

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_INTERNAL_MOVE_H_
