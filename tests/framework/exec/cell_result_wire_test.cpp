// A cell's result as bytes and back: every field comes back as it was, doubles bit for bit,
// and bytes cut short or run over are an error, not a result.
#include "exec/cell_result_wire.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

#include "kexp/error.hpp"

namespace kexp::core {
namespace {

CellResult full_result() {
  CellResult r;
  r.status = CellResult::Status::Failed;
  r.error = "kernel 'k' failed, with a comma, and\na line break";
  r.device_name = "NVIDIA H200";
  r.n_train = 123;
  r.n_test = 45;
  r.d = 6;
  r.feature_dim = 78;
  r.gram = PhaseTiming{0.5, 0.25, 0.75, 3};
  r.fit = PhaseTiming{1.0 / 3.0, 0.1, 0.9, 7};
  r.predict = PhaseTiming{2e-9, 1e-9, 3e-9, 1};
  r.kernel_fit = PhaseTiming{4, 4, 4, 1};
  r.train_rmse = 0.1 + 0.2;
  r.test_rmse = std::numeric_limits<double>::denorm_min();
  r.validation_rmse = -0.0;
  r.validation_seconds = 12.5;
  r.flops = 1e18;
  r.matrix_bytes = 8.0 * 123 * 123;
  r.peak_rss_bytes = 987654321;
  r.memory_notes = "its resident memory grew";
  r.iterations = 17;
  r.converged = false;
  r.paired_with = "0123456789abcdef";
  r.prediction_max_diff = 1e-13;
  r.metrics = {{"band_reduction", 1.5}, {"", -2}};
  r.learned = {{"sigma", 0.7}};
  r.loss_curve = {3, 2, 1};
  r.prediction.mean = {1, -1, 0.5};
  r.prediction.var_f = {0.1, 0.2, 0.3};
  return r;
}

/// Converts to any member's type: CellResult{AnyMember{}, …} compiles with as many of them as
/// it has members, and no more.
struct AnyMember {
  template <class T>
  operator T() const;  // NOLINT(google-explicit-constructor): only named in decltype
};

template <class T, class... A>
constexpr auto initializes(int) -> decltype(T{std::declval<A>()...}, true) {
  return true;
}
template <class T, class... A>
constexpr bool initializes(long) {
  return false;
}
template <class T, std::size_t... I>
constexpr bool initializes_from(std::index_sequence<I...>) {
  return initializes<T, decltype((void)I, AnyMember{})...>(0);
}
/// The number of members of the aggregate T.
template <class T, std::size_t N = 0>
constexpr std::size_t member_count() {
  if constexpr (initializes_from<T>(std::make_index_sequence<N + 1>{})) {
    return member_count<T, N + 1>();
  } else {
    return N;
  }
}

TEST(CellResultWire, EveryMemberOfACellResultIsOnTheWire) {
  // A member added to CellResult must be added to fields() in exec/cell_result_wire.cpp,
  // or a cell run in a child process loses it.
  EXPECT_EQ(cell_result_wire_members(), member_count<CellResult>());
  EXPECT_GE(member_count<CellResult>(), 30U);  // the count itself works
}

TEST(CellResultWire, EveryFieldComesBackAsItWas) {
  const CellResult a = full_result();
  const CellResult b = decode_cell_result(encode_cell_result(a));
  EXPECT_EQ(b.status, a.status);
  EXPECT_EQ(b.error, a.error);
  EXPECT_EQ(b.device_name, a.device_name);
  EXPECT_EQ(b.n_train, a.n_train);
  EXPECT_EQ(b.n_test, a.n_test);
  EXPECT_EQ(b.d, a.d);
  EXPECT_EQ(b.feature_dim, a.feature_dim);
  ASSERT_TRUE(b.gram && b.fit && b.predict && b.kernel_fit);
  EXPECT_FALSE(b.features.has_value());
  EXPECT_EQ(b.fit->median, a.fit->median);
  EXPECT_EQ(b.fit->count, 7);
  EXPECT_EQ(b.predict->min, 1e-9);
  EXPECT_EQ(b.train_rmse, a.train_rmse);
  EXPECT_EQ(b.test_rmse, a.test_rmse);
  EXPECT_FALSE(b.test_accuracy.has_value());
  ASSERT_TRUE(b.validation_rmse.has_value());
  EXPECT_TRUE(std::signbit(*b.validation_rmse));
  EXPECT_EQ(b.validation_seconds, 12.5);
  EXPECT_EQ(b.flops, a.flops);
  EXPECT_EQ(b.matrix_bytes, a.matrix_bytes);
  EXPECT_EQ(b.peak_rss_bytes, a.peak_rss_bytes);
  EXPECT_EQ(b.memory_notes, a.memory_notes);
  EXPECT_EQ(b.iterations, 17);
  EXPECT_EQ(b.converged, false);
  EXPECT_EQ(b.paired_with, a.paired_with);
  EXPECT_EQ(b.prediction_max_diff, a.prediction_max_diff);
  EXPECT_EQ(b.metrics, a.metrics);
  EXPECT_EQ(b.learned, a.learned);
  EXPECT_EQ(b.loss_curve, a.loss_curve);
  EXPECT_TRUE(arma::approx_equal(b.prediction.mean, a.prediction.mean, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(b.prediction.var_f, a.prediction.var_f, "absdiff", 0.0));
  EXPECT_TRUE(b.prediction.var_y.is_empty());
}

TEST(CellResultWire, AnEmptyResultComesBackEmpty) {
  const CellResult b = decode_cell_result(encode_cell_result(CellResult{}));
  EXPECT_EQ(b.status, CellResult::Status::Ok);
  EXPECT_FALSE(b.fit.has_value());
  EXPECT_EQ(b.peak_rss_bytes, -1);
  EXPECT_TRUE(b.prediction.mean.is_empty());
}

TEST(CellResultWire, BytesCutShortOrLeftOverAreAnError) {
  const std::string bytes = encode_cell_result(full_result());
  for (const std::size_t cut :
       {std::size_t{0}, std::size_t{1}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_THROW((void)decode_cell_result(bytes.substr(0, cut)), Error) << cut;
  }
  EXPECT_THROW((void)decode_cell_result(bytes + "x"), Error);
  std::string status = bytes;
  status[0] = 9;
  EXPECT_THROW((void)decode_cell_result(status), Error);
}

}  // namespace
}  // namespace kexp::core
