// The encoding of a CellResult: each field in declaration order, a number as its bytes, a
// text or a list as its length and then its entries, an optional as a flag byte and then
// its value.
#include "exec/cell_result_wire.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "kexp/error.hpp"

namespace kexp::core {

namespace {

class Writer {
 public:
  template <class T>
  std::enable_if_t<std::is_arithmetic_v<T>> put(T value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void put(const std::string& text) {
    put(static_cast<std::uint64_t>(text.size()));
    bytes_ += text;
  }
  void put(const PhaseTiming& t) {
    put(t.median);
    put(t.min);
    put(t.max);
    put(t.count);
  }
  void put(const arma::vec& v) {
    put(static_cast<std::uint64_t>(v.n_elem));
    bytes_.append(reinterpret_cast<const char*>(v.memptr()), v.n_elem * sizeof(double));
  }
  void put(const Prediction& p) {
    put(p.mean);
    put(p.var_f);
    put(p.var_y);
  }
  void put(const std::vector<double>& v) {
    put(static_cast<std::uint64_t>(v.size()));
    bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
  }
  void put(const std::vector<std::pair<std::string, double>>& named) {
    put(static_cast<std::uint64_t>(named.size()));
    for (const auto& [name, value] : named) {
      put(name);
      put(value);
    }
  }
  template <class T>
  void put(const std::optional<T>& value) {
    put(static_cast<std::uint8_t>(value.has_value()));
    if (value) put(*value);
  }
  [[nodiscard]] std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  template <class T>
  std::enable_if_t<std::is_arithmetic_v<T>> get(T& value) {
    std::memcpy(&value, take(sizeof value), sizeof value);
  }
  void get(std::string& text) {
    const std::size_t size = count();
    text.assign(take(size), size);
  }
  void get(PhaseTiming& t) {
    get(t.median);
    get(t.min);
    get(t.max);
    get(t.count);
  }
  void get(arma::vec& v) {
    const std::size_t size = count();
    v.set_size(size);
    if (size > 0) std::memcpy(v.memptr(), take(size * sizeof(double)), size * sizeof(double));
  }
  void get(Prediction& p) {
    get(p.mean);
    get(p.var_f);
    get(p.var_y);
  }
  void get(std::vector<double>& v) {
    const std::size_t size = count();
    v.resize(size);
    if (size > 0) std::memcpy(v.data(), take(size * sizeof(double)), size * sizeof(double));
  }
  void get(std::vector<std::pair<std::string, double>>& named) {
    named.resize(count());
    for (auto& [name, value] : named) {
      get(name);
      get(value);
    }
  }
  template <class T>
  void get(std::optional<T>& value) {
    std::uint8_t present = 0;
    get(present);
    value.reset();
    if (present != 0) get(value.emplace());
  }
  void finish() const {
    if (at_ != bytes_.size()) throw Error("a cell's result from its process has bytes left over");
  }

 private:
  std::size_t count() {
    std::uint64_t size = 0;
    get(size);
    if (size > bytes_.size()) throw Error("a cell's result from its process is cut short");
    return static_cast<std::size_t>(size);
  }
  const char* take(std::size_t size) {
    if (bytes_.size() - at_ < size) throw Error("a cell's result from its process is cut short");
    const char* p = bytes_.data() + at_;
    at_ += size;
    return p;
  }

  std::string_view bytes_;
  std::size_t at_ = 0;
};

/// Visits every member of a CellResult but its status with `io` (a Writer or a Reader), in
/// one order, each member once (cell_result_wire_members() counts them: a member added to
/// CellResult and not here fails CellResultWire.EveryMemberOfACellResultIsOnTheWire).
template <class IO, class Result>
void fields(IO& io, Result& r) {
  io.put_or_get(r.error);
  io.put_or_get(r.device_name);
  io.put_or_get(r.n_train);
  io.put_or_get(r.n_test);
  io.put_or_get(r.d);
  io.put_or_get(r.feature_dim);
  io.put_or_get(r.gram);
  io.put_or_get(r.features);
  io.put_or_get(r.fit);
  io.put_or_get(r.predict);
  io.put_or_get(r.kernel_fit);
  io.put_or_get(r.train_rmse);
  io.put_or_get(r.test_rmse);
  io.put_or_get(r.test_accuracy);
  io.put_or_get(r.validation_rmse);
  io.put_or_get(r.validation_rmse_std);
  io.put_or_get(r.validation_accuracy);
  io.put_or_get(r.validation_accuracy_std);
  io.put_or_get(r.validation_seconds);
  io.put_or_get(r.flops);
  io.put_or_get(r.matrix_bytes);
  io.put_or_get(r.peak_rss_bytes);
  io.put_or_get(r.memory_notes);
  io.put_or_get(r.flops_notes);
  io.put_or_get(r.iterations);
  io.put_or_get(r.converged);
  io.put_or_get(r.paired_with);
  io.put_or_get(r.prediction_max_diff);
  io.put_or_get(r.precision_max_diff);
  io.put_or_get(r.metrics);
  io.put_or_get(r.learned);
  io.put_or_get(r.loss_curve);
  io.put_or_get(r.prediction);
}

struct Encoding : Writer {
  template <class T>
  void put_or_get(const T& value) {
    put(value);
  }
};

struct Counting {
  std::size_t members = 0;
  template <class T>
  void put_or_get(const T& /*member*/) {
    ++members;
  }
};

struct Decoding : Reader {
  using Reader::Reader;
  template <class T>
  void put_or_get(T& value) {
    get(value);
  }
};

}  // namespace

std::string encode_cell_result(const CellResult& result) {
  Encoding out;
  out.put(static_cast<std::uint8_t>(result.status));
  fields(out, result);
  return out.take();
}

std::size_t cell_result_wire_members() {
  Counting count;
  const CellResult empty;
  fields(count, empty);
  return count.members + 1;  // and the status, put first
}

CellResult decode_cell_result(std::string_view bytes) {
  Decoding in(bytes);
  CellResult result;
  std::uint8_t status = 0;
  in.get(status);
  if (status > static_cast<std::uint8_t>(CellResult::Status::Timeout)) {
    throw Error("a cell's result from its process has an unknown status");
  }
  result.status = static_cast<CellResult::Status>(status);
  fields(in, result);
  in.finish();
  return result;
}

}  // namespace kexp::core
