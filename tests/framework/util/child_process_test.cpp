// A child process: its messages in order, how it ended (exit code, signal, timeout, stopped
// by the parent), and the thread pools of OpenMP and OpenBLAS usable in a child forked
// after the parent used them.
#include "util/child_process.hpp"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <armadillo>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
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

TEST(ChildProcess, StrayBytesOnEveryDescriptorNeitherCutAMessageShortNorReachTheParentsFiles) {
  // A file of the parent's, open when the child is forked, as results.csv is during a run.
  char name[] = "/tmp/kexp-child-stray-XXXXXX";
  const int file = ::mkstemp(name);
  ASSERT_GE(file, 0);
  ASSERT_EQ(::write(file, "header\n", 7), 7);
  Inbox inbox;
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        c.send("before");
        // What a careless plugin might do: write to every descriptor it may have.
        for (int fd = 3; fd < 1024; ++fd) {
          (void)!::write(fd, "13 stray bytes", 13);
        }
        c.send("after");
        for (int fd = 3; fd < 64; ++fd) (void)!::write(fd, "\x7fKX\x01 garbage", 12);  // a mark
        c.send("last");
      },
      inbox.sink(), 10);
  ::close(file);
  std::string contents(64, '\0');
  const int again = ::open(name, O_RDONLY);
  contents.resize(static_cast<std::size_t>(::read(again, contents.data(), contents.size())));
  ::close(again);
  ::unlink(name);
  EXPECT_TRUE(end.clean()) << end.describe();
  EXPECT_THAT(inbox.messages, ElementsAre("before", "after", "last"));
  EXPECT_EQ(contents, "header\n");
}

TEST(ChildProcess, AFrameWhoseBytesWereChangedIsSkippedNotDelivered) {
  Inbox inbox;
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        c.send("first");
        // A whole frame written by hand with a wrong checksum, then a good one.
        const char bad[] = {'\x7f', 'K', 'X', '\x01', 2, 0, 0, 0, 1, 2, 3, 4, 'n', 'o'};
        for (int fd = 3; fd < 64; ++fd) (void)!::write(fd, bad, sizeof bad);
        c.send("second");
      },
      inbox.sink(), 10);
  EXPECT_TRUE(end.clean()) << end.describe();
  EXPECT_THAT(inbox.messages, ElementsAre("first", "second"));
  EXPECT_GE(end.stray_bytes, sizeof(char[14]));
}

TEST(ChildProcess, AProcessTheChildStartedNeitherHoldsTheParentNorOutlivesIt) {
  Inbox inbox;
  const auto start = std::chrono::steady_clock::now();
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        const pid_t grandchild = ::fork();
        if (grandchild == 0) {
          for (;;) ::pause();  // holds the pipe's write end open
        }
        c.send(std::to_string(grandchild));
      },
      inbox.sink(), 30);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(end.clean()) << end.describe();
  EXPECT_LT(seconds, 5.0);
  ASSERT_EQ(inbox.messages.size(), 1U);
  const pid_t grandchild = std::stoi(inbox.messages[0]);
  // Killed with the child's process group; reparented, so not ours to reap: it is gone
  // once kill() no longer finds it, or only a zombie is left.
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    std::ifstream stat("/proc/" + std::to_string(grandchild) + "/stat");
    std::string pid, comm, state;
    gone = !(stat >> pid >> comm >> state) || state == "Z";
    if (!gone) ::usleep(10000);
  }
  EXPECT_TRUE(gone);
}

TEST(ChildProcess, AProcessLeftWritingForeverDoesNotHoldTheParent) {
  Inbox inbox;
  const auto start = std::chrono::steady_clock::now();
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        c.send("before");
        if (::fork() == 0) {
          for (;;) {
            for (int fd = 3; fd < 64; ++fd) (void)!::write(fd, "x", 1);
          }
        }
        c.send("after");
      },
      inbox.sink(), 30);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(end.clean()) << end.describe();
  EXPECT_LT(seconds, 10.0);
  EXPECT_THAT(inbox.messages, ElementsAre("before", "after"));
}

TEST(ChildProcess, AStrayMarkWithAPlausibleLengthHoldsNoMessageBack) {
  // A mark, then a length of 100 bytes that never come: the messages after it arrive as
  // they are sent, not when the child ends.
  std::vector<double> arrived;
  const auto start = std::chrono::steady_clock::now();
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        const char mark[] = {'\x7f', 'K', 'X', '\x01', 100, 0, 0, 0, 0, 0,
                             0,      0,   1,   2,      3,   4, 5, 6, 7, 8};
        for (int fd = 3; fd < 64; ++fd) (void)!::write(fd, mark, sizeof mark);
        c.send("now");
        ::sleep(3);
      },
      [&](std::string&&) {
        arrived.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        return true;
      },
      30);
  EXPECT_TRUE(end.clean()) << end.describe();
  ASSERT_EQ(arrived.size(), 1U);
  EXPECT_LT(arrived.front(), 2.5);
  EXPECT_GE(end.stray_bytes, sizeof(char[20]));
}

TEST(ChildProcess, AMessageSentBeforeTheDeadlineIsDeliveredThoughTheChildIsKilled) {
  Inbox inbox;
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        c.send("done in time");
        for (;;) ::pause();
      },
      inbox.sink(), 0.2);
  EXPECT_EQ(end.how, ChildEnd::How::TimedOut);
  EXPECT_THAT(inbox.messages, ElementsAre("done in time"));
}

TEST(ChildProcess, AStoppedChildIsKilledAtItsDeadline) {
  Inbox inbox;
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        c.send("started");
        ::raise(SIGSTOP);
      },
      inbox.sink(), 2);
  EXPECT_EQ(end.how, ChildEnd::How::TimedOut);
  EXPECT_THAT(inbox.messages, ElementsAre("started"));
}

TEST(ChildProcess, ADeadlineThatMovesIsKeptFromTheMessageThatSetIt) {
  // No deadline until the child says it starts its work; then 0.3 s.
  std::optional<std::chrono::steady_clock::time_point> started;
  const ChildEnd end = run_in_child(
      [](const ChildChannel& c) {
        ::usleep(500000);  // longer than the deadline, before it starts
        c.send("start");
        for (;;) ::pause();
      },
      [&](std::string&&) {
        started = std::chrono::steady_clock::now();
        return true;
      },
      [&] {
        if (!started) return std::numeric_limits<double>::infinity();
        return 0.3 -
               std::chrono::duration<double>(std::chrono::steady_clock::now() - *started).count();
      });
  EXPECT_EQ(end.how, ChildEnd::How::TimedOut);
  EXPECT_GE(end.seconds, 0.75);
  EXPECT_LT(end.seconds, 10.0);
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
