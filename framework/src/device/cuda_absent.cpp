// The CUDA backend in a build without the CUDA toolkit (KEXP_CUDA=OFF, or AUTO with no
// toolkit found): the probe says so, and asking for the backend refuses the same way
// (backend("cuda") asks the probe first, so it never does).
#include <string>

#include "device/backends.hpp"
#include "kexp/error.hpp"

namespace kexp::device {

namespace {

const char* const kNoCuda =
    "this kexp was built without CUDA (the CMake option KEXP_CUDA was OFF, or AUTO found no "
    "CUDA toolkit); build it with -DKEXP_CUDA=ON on a machine with the toolkit, or use device: "
    "cpu";

}  // namespace

bool probe_cuda(std::string&, std::string& reason, double&, double&) {
  reason = kNoCuda;
  return false;
}

Backend& cuda_backend() { throw Error(kNoCuda); }

}  // namespace kexp::device
