// device/gpu.hpp over device/cuda_ops.hpp: Armadillo's matrices as the raw arrays the CUDA
// code takes, and the probe of GPU 0 made once.
#include "device/gpu.hpp"

#include <string>

#include "device/cuda_ops.hpp"
#include "kexp/error.hpp"
#include "kexp/formula.hpp"

namespace kexp::device {

namespace {

/// The program, checked on the host before it is copied to the GPU: a malformed one is an
/// InvalidArgument here, never a fault there.
const FormulaProgram& checked(const FormulaProgram& program) {
  check_formula_program(program);
  return program;
}

}  // namespace

bool built_with_cuda() {
#if defined(KEXP_WITH_CUDA)
  return true;
#else
  return false;
#endif
}

const GpuInfo& gpu_info() {
  static const GpuInfo info = [] {
    GpuInfo i;
    i.present = cuda::probe(i.name, i.reason, i.free_bytes, i.total_bytes);
    return i;
  }();
  return info;
}

arma::vec ridge_solve(const FormulaProgram& kernel, const arma::mat& X, const arma::vec& y,
                      double lambda, Transfers& transfers) {
  arma::vec beta(X.n_cols);
  cuda::ridge_solve(checked(kernel), X.memptr(), X.n_rows, X.n_cols, y.memptr(), lambda,
                    beta.memptr(), transfers.seconds);
  return beta;
}

void require_float64_on_gpu(const char* solver, bool on_gpu, bool in_float64) {
  if (on_gpu && !in_float64) {
    throw InvalidArgument(std::string(solver) +
                          ": device: cuda runs in float64 only; use precision: double there");
  }
}

void add_transfer_seconds(SolverReport& report, double seconds) {
  for (auto& [name, value] : report.metrics) {
    if (name == "transfer_seconds") value += seconds;
  }
}

arma::vec primal_ridge_solve(const arma::mat& Phi, const arma::vec& y, double lambda,
                             Transfers& transfers) {
  if (y.n_elem != Phi.n_cols) {
    throw InvalidArgument("primal_ridge_solve: y has " + std::to_string(y.n_elem) +
                          " entries and Φ " + std::to_string(Phi.n_cols) +
                          " columns; they must be equal");
  }
  arma::vec theta(Phi.n_rows);
  cuda::primal_solve(Phi.memptr(), Phi.n_rows, Phi.n_cols, y.memptr(), lambda, theta.memptr(),
                     transfers.seconds);
  return theta;
}

arma::vec kernel_product(const FormulaProgram& kernel, const arma::mat& X, const arma::mat& Z,
                         const arma::vec& v, Transfers& transfers) {
  arma::vec out(Z.n_cols);
  cuda::kernel_product(checked(kernel), X.memptr(), X.n_cols, Z.memptr(), Z.n_cols, X.n_rows,
                       v.memptr(), out.memptr(), transfers.seconds);
  return out;
}

struct GramOperator::State {
  State(const FormulaProgram& kernel, const arma::mat& X, Transfers& t)
      : n(X.n_cols), gpu(checked(kernel), X.memptr(), X.n_cols, X.n_rows, t.seconds) {}
  std::size_t n;
  cuda::Gram gpu;
};

GramOperator::GramOperator(const FormulaProgram& kernel, const arma::mat& X, Transfers& transfers)
    : state_(std::make_unique<State>(kernel, X, transfers)) {}

GramOperator::~GramOperator() = default;

arma::vec GramOperator::product(const arma::vec& v) {
  if (v.n_elem != state_->n) {
    throw InvalidArgument("GramOperator::product: v has " + std::to_string(v.n_elem) +
                          " entries and X " + std::to_string(state_->n) + " points");
  }
  arma::vec out(state_->n);
  state_->gpu.product(v.memptr(), out.memptr());
  return out;
}

struct GaussianProcessSystem::State {
  State(const FormulaProgram& kernel, const arma::mat& X, const arma::vec& t, double noise,
        Transfers& transfers)
      : d(X.n_rows),
        weights(X.n_cols),
        gpu(checked(kernel), X.memptr(), X.n_cols, X.n_rows, t.memptr(), noise, weights.memptr(),
            log_det, transfers.seconds) {}
  std::size_t d;
  arma::vec weights;
  double log_det = 0.0;
  cuda::GaussianProcess gpu;
};

GaussianProcessSystem::GaussianProcessSystem(const FormulaProgram& kernel, const arma::mat& X,
                                             const arma::vec& t, double noise,
                                             Transfers& transfers) {
  if (t.n_elem != X.n_cols) {
    throw InvalidArgument("GaussianProcessSystem: t has " + std::to_string(t.n_elem) +
                          " entries and X " + std::to_string(X.n_cols) + " points");
  }
  state_ = std::make_unique<State>(kernel, X, t, noise, transfers);
}

GaussianProcessSystem::~GaussianProcessSystem() = default;

const arma::vec& GaussianProcessSystem::weights() const { return state_->weights; }

double GaussianProcessSystem::log_det() const { return state_->log_det; }

arma::vec GaussianProcessSystem::predict(const arma::mat& Z, arma::vec* explained) {
  if (Z.n_rows != state_->d) {
    throw InvalidArgument("GaussianProcessSystem::predict: the points have " +
                          std::to_string(Z.n_rows) + " dimensions and the training points " +
                          std::to_string(state_->d));
  }
  arma::vec mean(Z.n_cols);
  if (explained != nullptr) explained->set_size(Z.n_cols);
  state_->gpu.predict(Z.memptr(), Z.n_cols, mean.memptr(),
                      explained != nullptr ? explained->memptr() : nullptr);
  return mean;
}

struct NystromSystem::State {
  State(const FormulaProgram& kernel, const arma::mat& X, const arma::mat& C, Transfers& t)
      : n(X.n_cols),
        m(C.n_cols),
        gpu(checked(kernel), X.memptr(), n, C.memptr(), m, X.n_rows, t.seconds) {}
  std::size_t n, m;
  cuda::Nystrom gpu;
};

NystromSystem::NystromSystem(const FormulaProgram& kernel, const arma::mat& X, const arma::mat& C,
                             Transfers& transfers)
    : state_(std::make_unique<State>(kernel, X, C, transfers)) {}

NystromSystem::~NystromSystem() = default;

double NystromSystem::factor(double lambda) { return state_->gpu.factor(lambda); }

arma::vec NystromSystem::solve(bool of_t, const arma::vec& v, bool transpose) {
  arma::vec out = v;
  state_->gpu.solve(of_t, out.memptr(), transpose);
  return out;
}

arma::vec NystromSystem::normal_product(const arma::vec& u, const arma::vec& v) {
  arma::vec out(state_->m);
  state_->gpu.normal_product(u.memptr(), v.memptr(), !v.is_empty() && !arma::any(v), out.memptr());
  return out;
}

std::size_t NystromSystem::block_rows() const { return state_->gpu.block_rows(); }

}  // namespace kexp::device
