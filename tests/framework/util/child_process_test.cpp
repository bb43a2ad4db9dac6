// A child process: its messages in order, how it ended (exit code, signal, timeout, stopped
// by the parent), and the thread pools of OpenMP and OpenBLAS usable in a child forked
// after the parent used them.
#include "util/child_process.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <armadillo>
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "kexp/parallel.hpp"

extern "C" {
int openblas_get_num_threads(void);
void openblas_set_num_threads(int n);
}
#include "support/kernels.hpp"

namespace kexp::core {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

/// Collects the messages of a child.
struct Inbox {
  std::vector<std::string> messages;
  auto sink() {
    return [this](std::string&& m) {
      messages.push_back(std::move(m));
      return true;
    };
  }
};

TEST(ChildProcess, MessagesArriveInOrderAndACleanEndIsExitCodeZero) {
  Inbox inbox;
  const std::string big(300000, 'x');  // more than one pipe buffer
  const ChildEnd end = run_in_child(
      [&](const ChildChannel& c) {
        c.send("one");
        c.send("");
        c.send(big);
        c.send("three");
      },
      inbox.sink(), 10);
  EXPECT_TRUE(end.clean()) << end.describe();
  ASSERT_EQ(inbox.messages.size(), 4U);
  EXPECT_EQ(inbox.messages[0], "one");
  EXPECT_EQ(inbox.messages[1], "");
  EXPECT_EQ(inbox.messages[2], big);
  EXPECT_EQ(inbox.messages[3], "three");
}

TEST(ChildProcess, AnExitASignalAndAnAbortAreToldApartAndTheMessagesBeforeThemKept) {
  Inbox exits;
  const ChildEnd exited = run_in_child(
      [](const ChildChannel& c) {
        c.send("before");
        std::exit(7);
      },
      exits.sink(), 10);
  EXPECT_EQ(exited.how, ChildEnd::How::Exited);
  EXPECT_EQ(exited.code, 7);
  EXPECT_EQ(exited.describe(), "exited with code 7");
  EXPECT_THAT(exits.messages, ElementsAre("before"));

  Inbox segv;
  const ChildEnd killed = run_in_child(
      [](const ChildChannel& c) {
        c.send("before");
        std::raise(SIGSEGV);
      },
      segv.sink(), 10);
  EXPECT_EQ(killed.how, ChildEnd::How::Signaled);
  EXPECT_EQ(killed.describe(), "was killed by SIGSEGV (signal 11)");
  EXPECT_THAT(segv.messages, ElementsAre("before"));

  const ChildEnd aborted =
      run_in_child([](const ChildChannel&) { std::abort(); }, Inbox().sink(), 10);
  EXPECT_EQ(aborted.describe(), "was killed by SIGABRT (signal 6)");

  const ChildEnd threw =
      run_in_child([](const ChildChannel&) { throw std::runtime_error("no"); }, Inbox().sink(), 10);
  EXPECT_EQ(threw.how, ChildEnd::How::Exited);
  EXPECT_EQ(threw.code, 125);
}

TEST(ChildProcess, AChildThatHangsIsKilledAtTheTimeout) {
  Inbox inbox;
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        c.send("started");
        for (;;) ::pause();
      },
      inbox.sink(), 0.3);
  EXPECT_EQ(end.how, ChildEnd::How::TimedOut);
  EXPECT_THAT(end.describe(), HasSubstr("did not finish within 0.3 s and was killed"));
  EXPECT_THAT(inbox.messages, ElementsAre("started"));
}

TEST(ChildProcess, TheParentStopsTheChildByReturningFalse) {
  int seen = 0;
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        for (int i = 0;; ++i) {
          c.send(std::to_string(i));
          ::usleep(1000);
        }
      },
      [&](std::string&&) { return ++seen < 3; }, 10);
  EXPECT_EQ(end.how, ChildEnd::How::Stopped);
  EXPECT_EQ(seen, 3);
}

TEST(ChildProcess, OpenMpAndBlasWorkInAChildAfterTheParentUsedTheirThreads) {
  // The parent runs a parallel region on 3 threads and a threaded DGEMM; a child forked
  // after them does both again and sends the results. A child of a thread whose OpenMP
  // pool the fork did not copy would wait forever: the timeout ends the test instead.
  const int before = thread_count();
  set_thread_count(3);
  const arma::mat A = test::uniform_points(400, 400, 5);
  const arma::mat parent_product = A * A.t();
  std::vector<double> parent_sums(64, 0.0);
  parallel_for(64, [&](std::size_t i) { parent_sums[i] = arma::accu(A.col(i)); });

  Inbox inbox;
  const ChildEnd end = run_in_child(
      [&](const ChildChannel& c) {
        std::vector<double> sums(64, 0.0);
        parallel_for(64, [&](std::size_t i) { sums[i] = arma::accu(A.col(i)); });
        const arma::mat product = A * A.t();
        c.send(std::to_string(arma::abs(product - parent_product).max()));
        c.send(sums == parent_sums ? "same" : "different");
      },
      inbox.sink(), 30);
  set_thread_count(before);
  ASSERT_TRUE(end.clean()) << end.describe();
  ASSERT_EQ(inbox.messages.size(), 2U);
  EXPECT_LE(std::stod(inbox.messages[0]), 1e-9);
  EXPECT_EQ(inbox.messages[1], "same");
}

TEST(ChildProcess, BlasRunsInAChildOnTheThreadsTheParentSetForIt) {
  // The child runs on a thread of its own, whose OpenMP count starts at OpenMP's initial
  // one (the cores here); OpenBLAS's OpenMP build runs on that thread's count, so the
  // child must take BLAS's. Three threads, more than the cores of a two-core machine, so
  // that the two counts differ there; after a threaded DGEMM OpenBLAS reports the count it
  // ran with.
  const int before = openblas_get_num_threads();
  openblas_set_num_threads(3);
  const arma::mat A = test::uniform_points(300, 300, 6);
  const arma::mat expected = A * A;
  Inbox inbox;
  const ChildEnd end = run_in_child(
      [&](const ChildChannel& c) {
        const arma::mat product = A * A;
        c.send(std::to_string(openblas_get_num_threads()));
        c.send(std::to_string(arma::abs(product - expected).max()));
      },
      inbox.sink(), 30);
  openblas_set_num_threads(before);
  ASSERT_TRUE(end.clean()) << end.describe();
  ASSERT_EQ(inbox.messages.size(), 2U);
  EXPECT_EQ(inbox.messages[0], "3");
  EXPECT_LE(std::stod(inbox.messages[1]), 1e-9);
}

}  // namespace
}  // namespace kexp::core
