// What a team has read of one shared object (a slab, a chunk, a node, a
// 128-byte line) in its current read: the words its lanes loaded since its
// last collective or write. The targeted scheduler (schedulers/targeted.cpp)
// preempts a team inside such a read and resumes it once the read is torn:
// another team wrote a word the read has already taken and then (or in the
// same write) a word it has yet to take, so the read will hold an old value
// and a newer one that never were in memory together.
#pragma once
#include <cstdint>
#include <vector>

namespace warpcheck::sim {

class ObjectRead {
 public:
  // Words tracked a read; a larger read's further words count as not read
  // (a heuristic's error: the read may then end early, never late).
  static constexpr size_t kMaxWords = 64;

  void clear() {
    object_ = last_ = 0;
    words_.clear();
  }
  // A load of `bytes` at `address`, inside `object`; a load of another
  // object starts a new read.
  void loaded(uintptr_t object, uintptr_t address, uint32_t bytes) {
    if (object != object_) clear();
    object_ = object;
    last_ = address;
    for (const Word& w : words_)
      if (w.address == address && w.bytes >= bytes) return;
    if (words_.size() < kMaxWords) words_.push_back({address, bytes});
  }
  uintptr_t object() const { return object_; }  // 0: no read
  uintptr_t last() const { return last_; }      // the last load's address

  struct Overlap {
    bool read = false;    // the write covers a word this read has taken
    bool unread = false;  // ... and one it has not (yet)
  };
  // A write of `bytes` at `address`, word (4 bytes) by word.
  Overlap overlap(uintptr_t address, uint32_t bytes) const {
    Overlap o;
    for (uintptr_t a = address; a < address + bytes; a += 4) {
      bool taken = false;
      for (const Word& w : words_) taken |= a >= w.address && a < w.address + w.bytes;
      (taken ? o.read : o.unread) = true;
    }
    return o;
  }

 private:
  struct Word {
    uintptr_t address;
    uint32_t bytes;
  };
  uintptr_t object_ = 0, last_ = 0;
  std::vector<Word> words_;
};

}  // namespace warpcheck::sim
