// The CUDA backend in a build without the CUDA toolkit (KEXP_CUDA=OFF, or AUTO with no
// toolkit found): the probe says so, and every primitive refuses the same way.
#include <string>

#include "device/backends.hpp"
#include "kexp/error.hpp"

namespace kexp::device {

namespace {

const char* const kNoCuda =
    "this kexp was built without CUDA (the CMake option KEXP_CUDA was OFF, or AUTO found no "
    "CUDA toolkit); build it with -DKEXP_CUDA=ON on a machine with the toolkit, or use device: "
    "cpu";

[[noreturn]] void refuse() { throw Error(kNoCuda); }

class AbsentCuda final : public Backend {
 public:
  const char* name() const override { return "cuda"; }
  std::string memory_name() const override { return "GPU memory"; }
  std::string unavailable() const override { return kNoCuda; }
  Memory memory() const override { refuse(); }
  double* allocate(std::size_t) override { refuse(); }
  void release(double*) noexcept override {}
  void copy_to_device(double*, const double*, std::size_t) override { refuse(); }
  void copy_to_host(double*, const double*, std::size_t) override { refuse(); }
  void copy_on_device(double*, const double*, std::size_t) override { refuse(); }
  void set_zero(double*, std::size_t) override { refuse(); }
  void synchronize() override { refuse(); }
  void gemm(Op, Op, std::size_t, std::size_t, std::size_t, double, const double*, std::size_t,
            const double*, std::size_t, double, double*, std::size_t) override {
    refuse();
  }
  void gemv(Op, std::size_t, std::size_t, double, const double*, std::size_t, const double*, double,
            double*) override {
    refuse();
  }
  void syrk(Op, std::size_t, std::size_t, double, const double*, std::size_t, double, double*,
            std::size_t) override {
    refuse();
  }
  int potrf(double*, std::size_t, std::size_t) override { refuse(); }
  double potrf_workspace_bytes(std::size_t) override { refuse(); }
  void potrs(const double*, std::size_t, std::size_t, double*, std::size_t, std::size_t) override {
    refuse();
  }
  void trsm(Op, const double*, std::size_t, std::size_t, double*, std::size_t,
            std::size_t) override {
    refuse();
  }
  void trsv(Op, const double*, std::size_t, std::size_t, double*) override { refuse(); }
  void squared_norms(const double*, std::size_t, std::size_t, double*) override { refuse(); }
  void apply_kernel(const FormulaProgram&, double*, std::size_t, std::size_t, std::size_t,
                    const double*, const double*, bool, double) override {
    refuse();
  }
  void lower_only(double*, std::size_t, std::size_t, double) override { refuse(); }
  void get_diagonal(const double*, std::size_t, std::size_t, double*) override { refuse(); }
  void set_diagonal(double*, std::size_t, std::size_t, const double*, double) override { refuse(); }
  void column_squares(const double*, std::size_t, std::size_t, std::size_t, double*) override {
    refuse();
  }
};

}  // namespace

bool probe_cuda(std::string&, std::string& reason, double&, double&) {
  reason = kNoCuda;
  return false;
}

Backend& cuda_backend() {
  static AbsentCuda backend;
  return backend;
}

}  // namespace kexp::device
