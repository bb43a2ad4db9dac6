// The validity check behind `kexp check-kernel`, on kernels built to fail it.
#include "check/kernel_check.hpp"

#include <gtest/gtest.h>

#include "support/kernels.hpp"

namespace kexp::core {
namespace {

/// k(x, z) = xᵀz + (x₀ − z₀): not symmetric.
class Skewed final : public Kernel {
 public:
  bool positive_semidefinite() const override { return true; }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return arma::dot(x, z) + x[0] - z[0];
  }
};

/// k(x, z) = −xᵀz: symmetric, negative semi-definite.
class Negative final : public Kernel {
 public:
  bool positive_semidefinite() const override { return true; }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override { return -arma::dot(x, z); }
};

/// k = xᵀz with a map that claims to be exact but scales x by 1.001.
class WrongMap final : public FeatureMap {
 public:
  std::size_t dimension(std::size_t d) const override { return d; }
  bool exact() const override { return true; }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override { Phi = 1.001 * X; }
};

class LinearWithWrongMap final : public Kernel {
 public:
  bool positive_semidefinite() const override { return true; }
  const FeatureMap* feature_map() const override { return &map_; }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override { return arma::dot(x, z); }

 private:
  WrongMap map_;
};

/// k(x, z) = 1/(x₀ − z₀): infinite on the diagonal.
class Singular final : public Kernel {
 public:
  bool positive_semidefinite() const override { return true; }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return 1.0 / (x[0] - z[0]);
  }
};

TEST(KernelCheck, AGramMatrixThatIsNotFiniteNamesTheKernelAndTheFirstEntry) {
  try {
    (void)check_kernel(Singular{}, sample_points(3, 20, 1), "singular(c=0)");
    FAIL() << "an infinite Gram matrix was checked";
  } catch (const NumericError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("kernel singular(c=0) gave 20 of the 400 entries"), std::string::npos)
        << what;
    EXPECT_NE(what.find("the first k(x_0, x_0) = inf"), std::string::npos) << what;
  }
}

TEST(KernelCheck, SamplePointsAreReproducible) {
  EXPECT_TRUE(arma::approx_equal(sample_points(3, 4, 9), sample_points(3, 4, 9), "absdiff", 0.0));
  EXPECT_FALSE(arma::approx_equal(sample_points(3, 4, 9), sample_points(3, 4, 8), "absdiff", 0.0));
}

TEST(KernelCheck, FindsAnAsymmetricKernel) {
  const KernelCheck c = check_kernel(Skewed{}, sample_points(3, 20, 1), "skewed");
  EXPECT_FALSE(c.symmetric);
  EXPECT_GT(c.symmetry_error, 0.01);
  EXPECT_FALSE(c.valid());
}

TEST(KernelCheck, FindsANegativeEigenvalue) {
  const KernelCheck c = check_kernel(Negative{}, sample_points(3, 20, 1), "negative");
  EXPECT_TRUE(c.symmetric);
  EXPECT_FALSE(c.positive_semidefinite);
  EXPECT_NEAR(c.eigen_min_relative, -1.0, 1e-12);
  EXPECT_FALSE(c.valid());
}

TEST(KernelCheck, FindsAnExactMapThatDisagrees) {
  const KernelCheck c =
      check_kernel(LinearWithWrongMap{}, sample_points(3, 20, 1), "linear_with_wrong_map");
  EXPECT_TRUE(c.positive_semidefinite);
  EXPECT_TRUE(c.has_map);
  EXPECT_NEAR(c.map_error_relative, 0.001 * 2.001, 1e-6);
  EXPECT_FALSE(c.map_agrees);
  EXPECT_FALSE(c.valid());
}

}  // namespace
}  // namespace kexp::core
