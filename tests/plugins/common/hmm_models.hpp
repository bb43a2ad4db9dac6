// Two small hidden Markov models that the tests of plugins/common/hmm_*.hpp share.
#pragma once

#include "common/hmm_model.hpp"

namespace kexp::test {

inline kexp_kernels::Hmm two_states() {
  kexp_kernels::Hmm m;
  m.pi = {0.7, 0.3};
  m.A = {{0.9, 0.1}, {0.15, 0.85}};
  m.B = {{0.7, 0.2, 0.1}, {0.1, 0.2, 0.7}};
  return m;
}

inline kexp_kernels::Hmm three_states() {
  kexp_kernels::Hmm m;
  m.pi = {0.5, 0.2, 0.3};
  m.A = {{0.6, 0.3, 0.1}, {0.2, 0.5, 0.3}, {0.25, 0.25, 0.5}};
  m.B = {{0.5, 0.4, 0.1}, {0.05, 0.15, 0.8}, {0.3, 0.3, 0.4}};
  return m;
}

}  // namespace kexp::test
