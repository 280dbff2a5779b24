// A Treiber stack written against warpcheck's team-and-memory layer, the
// way a user writes one outside the project: a template over the Team,
// every shared access through it (t.load, t.store, t.cas with an order),
// every retry loop bounded. The same source runs in the deterministic
// simulator (main.cpp) and, compiled by nvcc, on the GPU's teams.
//
// Nodes come from a pool the caller hands out (each push its own node,
// never reused), so there is no ABA and no reclamation to get wrong. The
// top word holds a node's index + 1 (0: empty).
//
// One planted bug, `link_after_publish`: push publishes its node (the CAS
// on top) before linking it to the old top. A pop that takes the node in
// between reads its empty link and drops the rest of the stack.
#pragma once
#include <cstdint>

#include <warpcheck/team.hpp>

namespace treiber {

struct node {
  int64_t value;
  uint32_t next;  // index + 1 of the node below, 0: none
  uint32_t unused;
};

struct pop_result {
  bool done = false;   // false: gave up (the spin bound; the simulator reports why)
  bool found = false;  // false: the stack was empty
  int64_t value = 0;
};

struct stack {
  node* nodes;
  uint32_t* top;
  bool link_after_publish = false;  // the planted bug

  template <class Team>
  bool push(Team& t, uint32_t index, int64_t value) const {
    using namespace warpcheck::core;
    node* n = nodes + index;
    t.store(&n->value, value, order::relaxed, scope::gpu);
    bounded_spin<Team> spin(t, top);
    for (;;) {
      const uint32_t old = t.load(top, order::acquire, scope::gpu);
      if (!link_after_publish) t.store(&n->next, old, order::relaxed, scope::gpu);
      // Release: the node's value and link are visible before it is.
      if (t.cas(top, old, index + 1, order::acq_rel, scope::gpu) == old) {
        if (link_after_publish) t.store(&n->next, old, order::relaxed, scope::gpu);
        return true;
      }
      if (!spin.again()) return false;
    }
  }

  template <class Team>
  pop_result pop(Team& t) const {
    using namespace warpcheck::core;
    bounded_spin<Team> spin(t, top);
    for (;;) {
      const uint32_t old = t.load(top, order::acquire, scope::gpu);
      if (old == 0) return {true, false, 0};
      node* n = nodes + (old - 1);
      const uint32_t next = t.load(&n->next, order::relaxed, scope::gpu);
      if (t.cas(top, old, next, order::acq_rel, scope::gpu) == old) return {true, true, t.load(&n->value, order::relaxed, scope::gpu)};
      if (!spin.again()) return {};
    }
  }
};

}  // namespace treiber
