// The parallel loop of the streamed products (gram.cpp, gram_single.cpp): tiles or runs of
// tiles shared among kexp's threads, each thread with scratch of its own, BLAS on one
// thread throughout, and an exception of any tile rethrown on the calling thread.
#pragma once

#include <omp.h>

#include <cstddef>

#include "kexp/gram.hpp"
#include "kexp/parallel.hpp"

namespace kexp::detail {

/// body(i, scratch) for i < count, dynamically scheduled over thread_count() threads; each
/// thread default-constructs one Scratch (its tile buffer) and passes it to every call it
/// makes. Once a call has thrown, the remaining ones are skipped and the first exception
/// is rethrown here. The kernel's Gram of a tile runs on the thread that asked for it
/// (OpenMP regions do not nest), and BLAS on one thread, so that OpenBLAS's threads never
/// compete with these.
template <class Scratch, class Body>
void parallel_tiles(std::size_t count, const Body& body) {
  SingleThreadedBlas single;
  ExceptionCapture capture;
#pragma omp parallel num_threads(thread_count())
  {
    Scratch scratch;
#pragma omp for schedule(dynamic, 1)
    for (long i = 0; i < static_cast<long>(count); ++i) {
      if (capture.failed()) continue;
      capture.run([&] { body(static_cast<std::size_t>(i), scratch); });
    }
  }
  capture.rethrow_if_any();
}

}  // namespace kexp::detail
