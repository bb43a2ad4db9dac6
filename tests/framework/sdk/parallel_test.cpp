// Parallel loops that an exception can leave: parallel_for and ExceptionCapture, and the
// SDK's own parallel loops (the default Gram loops, the blocked Gram) built on them. On
// four threads, so that the exceptions are thrown away from the calling thread too.
#include "kexp/parallel.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/kernel.hpp"

namespace kexp {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr int kThreads = 4;

/// Runs the tests of this file on kThreads threads, and restores the default after.
class Parallel : public ::testing::TestWithParam<Schedule> {
 protected:
  void SetUp() override { set_thread_count(kThreads); }
  void TearDown() override { set_thread_count(0); }
};

TEST_P(Parallel, WithoutAnExceptionEveryIterationRunsOnce) {
  const std::size_t n = 10007;
  std::vector<int> runs(n, 0);
  std::vector<int> team_of(n, 0);
  parallel_for(
      n,
      [&](std::size_t i) {
        ++runs[i];
        team_of[i] = omp_get_num_threads();
      },
      GetParam(), 16);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(runs[i], 1) << "iteration " << i;
  // The loop ran in a team of threads (which of them took which iterations depends on
  // the machine's load, and is not checked).
  EXPECT_EQ(*std::max_element(team_of.begin(), team_of.end()), kThreads);
}

TEST_P(Parallel, NoIterationsIsNothingToDo) {
  int runs = 0;
  parallel_for(
      0, [&](std::size_t) { ++runs; }, GetParam());
  EXPECT_EQ(runs, 0);
}

TEST_P(Parallel, AnExceptionFromOneIterationIsRethrownOnTheCallingThread) {
  const std::size_t n = 4000;
  try {
    parallel_for(
        n,
        [&](std::size_t i) {
          if (i == 2999) throw NumericError("iteration 2999 failed");
        },
        GetParam(), 8);
    FAIL() << "no exception";
  } catch (const NumericError& e) {
    EXPECT_STREQ(e.what(), "iteration 2999 failed");
  }
}

TEST_P(Parallel, OfExceptionsFromManyThreadsOneIsRethrown) {
  std::atomic<int> thrown{0};
  try {
    parallel_for(
        1000,
        [&](std::size_t i) {
          ++thrown;
          throw std::runtime_error("iteration " + std::to_string(i));
        },
        GetParam());
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), StartsWith("iteration "));
  }
  EXPECT_GE(thrown.load(), 1);
}

TEST_P(Parallel, SomethingThatIsNotAnExceptionClassIsRethrownToo) {
  try {
    parallel_for(
        100,
        [](std::size_t i) {
          if (i == 50) throw 42;
        },
        GetParam());
    FAIL() << "no exception";
  } catch (int value) {
    EXPECT_EQ(value, 42);
  }
}

INSTANTIATE_TEST_SUITE_P(Schedules, Parallel,
                         ::testing::Values(Schedule::Static, Schedule::Dynamic));

TEST(ParallelFor, AfterAnExceptionTheThreadThatThrewSkipsTheRestOfItsShare) {
  set_thread_count(kThreads);
  // Static schedule: thread 0 owns iterations 0 … 249 and throws at the first.
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_for(1000,
                            [&](std::size_t i) {
                              ++ran;
                              if (i == 0) throw Error("first");
                            }),
               Error);
  EXPECT_LE(ran.load(), 1000 - 249);
  set_thread_count(0);
}

TEST(ExceptionCapture, CarriesAnExceptionOutOfARegionOfOnesOwn) {
  set_thread_count(kThreads);
  ExceptionCapture capture;
  std::atomic<int> ran{0};
#pragma omp parallel num_threads(thread_count())
  {
    std::vector<double> scratch;
    // One thread fails to set up its scratch space; the others skip the loop.
    capture.run([&] {
      if (omp_get_thread_num() == 1) throw std::length_error("no room for the scratch space");
      scratch.resize(8);
    });
#pragma omp barrier
#pragma omp for schedule(static)
    for (long i = 0; i < 100; ++i) {
      if (capture.failed()) continue;
      capture.run([&] { ++ran; });
    }
  }
  EXPECT_TRUE(capture.failed());
  EXPECT_EQ(ran.load(), 0);
  EXPECT_THROW(capture.rethrow_if_any(), std::length_error);
  set_thread_count(0);
}

TEST(ExceptionCapture, WithoutAnExceptionRethrowsNothing) {
  ExceptionCapture capture;
  capture.run([] {});
  EXPECT_FALSE(capture.failed());
  EXPECT_NO_THROW(capture.rethrow_if_any());
}

/// k(x, z) = xᵀz, throwing from compute() for one pair of points.
class ThrowsOnOnePair final : public Kernel {
 public:
  explicit ThrowsOnOnePair(double bad) : bad_(bad) {}
  bool positive_semidefinite() const override { return true; }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    if (x[0] == bad_ && z[0] == bad_) throw InvalidArgument("k is undefined at this point");
    return arma::dot(x, z);
  }

 private:
  double bad_;
};

TEST(SdkLoops, AnExceptionFromComputeLeavesTheDefaultGramLoops) {
  set_thread_count(kThreads);
  arma::mat X(2, 300, arma::fill::randu);
  X(0, 211) = 7.0;
  const ThrowsOnOnePair kernel(7.0);
  arma::mat K;
  EXPECT_THROW(kernel.gram(X, K), InvalidArgument);
  EXPECT_THROW(kernel.gram(X, X, K), InvalidArgument);
  X(0, 211) = 0.5;
  EXPECT_NO_THROW(kernel.gram(X, K));
  set_thread_count(0);
}

TEST(SdkLoops, AnExceptionWhileFillingABlockLeavesTheBlockedGram) {
  set_thread_count(kThreads);
  const std::size_t n = 3 * detail::kGramBlock + 5;  // 4 × 4 blocks
  arma::mat K(n, n);
  for (const bool symmetric : {true, false}) {
    try {
      detail::for_each_block(n, n, K, symmetric,
                             [](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                                std::size_t cols, std::size_t ld) {
                               if (i0 > 0 && j0 == 2 * detail::kGramBlock)
                                 throw std::domain_error("bad block");
                               for (std::size_t j = 0; j < cols; ++j)
                                 for (std::size_t i = 0; i < rows; ++i) block[i + j * ld] = 1.0;
                             });
      FAIL() << "no exception, symmetric " << symmetric;
    } catch (const std::domain_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("bad block"));
    }
  }
  set_thread_count(0);
}

}  // namespace
}  // namespace kexp
