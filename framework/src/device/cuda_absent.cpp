// device/cuda_ops.hpp in a build without the CUDA toolkit (KEXP_CUDA=OFF, or AUTO with no
// toolkit found): the probe says so, and everything else refuses the same way.
#include <string>

#include "device/cuda_ops.hpp"
#include "kexp/error.hpp"

namespace kexp::device::cuda {

namespace {

const char* const kNoCuda =
    "this kexp was built without CUDA (the CMake option KEXP_CUDA was OFF, or AUTO found no "
    "CUDA toolkit); build it with -DKEXP_CUDA=ON on a machine with the toolkit, or use device: "
    "cpu";

[[noreturn]] void refuse() { throw Error(kNoCuda); }

}  // namespace

bool probe(std::string&, std::string& reason, double&, double&) {
  reason = kNoCuda;
  return false;
}

void memory(double&, double&) { refuse(); }

void ridge_solve(const FormulaProgram&, const double*, std::size_t, std::size_t, const double*,
                 double, double*, double&) {
  refuse();
}

void primal_solve(const double*, std::size_t, std::size_t, const double*, double, double*,
                  double&) {
  refuse();
}

void kernel_product(const FormulaProgram&, const double*, std::size_t, const double*, std::size_t,
                    std::size_t, const double*, double*, double&) {
  refuse();
}

struct Gram::Impl {};

Gram::Gram(const FormulaProgram&, const double*, std::size_t, std::size_t, double& transfer_seconds)
    : impl_(nullptr), transfer_seconds_(&transfer_seconds) {
  refuse();
}

Gram::~Gram() = default;

void Gram::product(const double*, double*) { refuse(); }

struct GaussianProcess::Impl {};

GaussianProcess::GaussianProcess(const FormulaProgram&, const double*, std::size_t, std::size_t,
                                 const double*, double, double*, double&, double& transfer_seconds)
    : impl_(nullptr), transfer_seconds_(&transfer_seconds) {
  refuse();
}

GaussianProcess::~GaussianProcess() = default;

void GaussianProcess::predict(const double*, std::size_t, double*, double*) { refuse(); }

struct Nystrom::Impl {};

Nystrom::Nystrom(const FormulaProgram&, const double*, std::size_t, const double*, std::size_t,
                 std::size_t, double& transfer_seconds)
    : impl_(nullptr), transfer_seconds_(&transfer_seconds) {
  refuse();
}

Nystrom::~Nystrom() = default;

double Nystrom::factor(double) { refuse(); }
void Nystrom::solve(bool, double*, bool) { refuse(); }
void Nystrom::normal_product(const double*, const double*, bool, double*) { refuse(); }
std::size_t Nystrom::block_rows() const { return 0; }

}  // namespace kexp::device::cuda
