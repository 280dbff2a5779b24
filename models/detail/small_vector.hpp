// A vector of trivially copyable elements that keeps its first N elements
// inline. Model states are copied on every search step; per-key states hold
// zero or one element, so they never touch the heap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

namespace warpcheck::detail {

template <class T, uint32_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  SmallVector() = default;
  SmallVector(const SmallVector& o) { assign(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) {
      size_ = 0;
      assign(o);
    }
    return *this;
  }
  // Moves take the heap block, if any: a memo's array of states grows
  // without copying every state's values.
  SmallVector(SmallVector&& o) noexcept { take(o); }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      if (heap_) std::free(heap_);
      heap_ = nullptr;
      capacity_ = N;
      take(o);
    }
    return *this;
  }
  ~SmallVector() {
    if (heap_) std::free(heap_);
  }

  uint32_t size() const { return size_; }
  size_t heap_bytes() const { return heap_ ? size_t(capacity_) * sizeof(T) : 0; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_ ? heap_ : inline_; }
  const T* data() const { return heap_ ? heap_ : inline_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](uint32_t i) { return data()[i]; }
  const T& operator[](uint32_t i) const { return data()[i]; }

  void insert_at(uint32_t pos, const T& v) {
    reserve(size_ + 1);
    T* d = data();
    std::memmove(d + pos + 1, d + pos, (size_ - pos) * sizeof(T));
    d[pos] = v;
    ++size_;
  }
  void erase_at(uint32_t pos) { erase_range(pos, pos + 1); }
  void erase_range(uint32_t first, uint32_t last) {
    T* d = data();
    std::memmove(d + first, d + last, (size_ - last) * sizeof(T));
    size_ -= last - first;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  void reserve(uint32_t n) {
    if (n <= capacity_) return;
    uint32_t cap = std::max(n, capacity_ * 2);
    T* fresh = static_cast<T*>(std::malloc(sizeof(T) * cap));
    if (!fresh) throw std::bad_alloc();
    std::memcpy(fresh, data(), size_ * sizeof(T));
    if (heap_) std::free(heap_);
    heap_ = fresh;
    capacity_ = cap;
  }
  void take(SmallVector& o) {
    if (o.heap_) {
      heap_ = o.heap_;
      capacity_ = o.capacity_;
      o.heap_ = nullptr;
      o.capacity_ = N;
    } else {
      std::memcpy(inline_, o.inline_, o.size_ * sizeof(T));
    }
    size_ = o.size_;
    o.size_ = 0;
  }
  void assign(const SmallVector& o) {
    reserve(o.size_);
    std::memcpy(data(), o.data(), o.size_ * sizeof(T));
    size_ = o.size_;
  }

  T* heap_ = nullptr;
  uint32_t size_ = 0;
  uint32_t capacity_ = N;
  T inline_[N];
};

}  // namespace warpcheck::detail
