// libsvm: a data set in the sparse text format of LIBSVM and SVMlight.
//
// One sample per line:  <label> <index>:<value> <index>:<value> …   with indices counted
// from 1 and strictly increasing along the line; an index that does not appear has the
// value 0. Text from '#' to the end of a line is a comment; blank lines are skipped.
//
// The dimension d is the largest index in the training file, or `dimension` when it is
// set (> 0), in which case every index must be ≤ dimension. A `test` file is the test set
// as it is, in its row order, padded with zeros to d. An index in the test file beyond d
// is an error, never silently dropped: set `dimension` to cover both files.
//
// The samples are stored dense (d × n). A NaN or ±Inf label or value is an error, or with
// `on_nonfinite: drop` its line is left out and the count reported on stderr. With
// `task: classification` the labels of the training file take two values at least: two are
// mapped to ±1 (the smaller to −1), more are the classes of a multi-class set, kept as they
// are (LIBSVM's multi-class files); a test label that is not a training class is an error.
//
// Limits, checked before memory is taken: a file is read only if it is a regular file of at
// most `max_file_bytes` (1 GiB); without `dimension` an index is at most `max_features`
// (100 000); the dense matrix d × n × 8 bytes is at most `max_matrix_bytes` (4 GiB).
#include <kexp/kexp.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "datasets/libsvm_reader.hpp"

namespace {

using kexp_datasets::TextFile;

class LibsvmDataset final : public kexp::Dataset {
 public:
  explicit LibsvmDataset(const kexp::Params& p) : files_(p) {
    options_.dimension = static_cast<std::size_t>(p.integer("dimension"));
    options_.task = kexp_datasets::task_of(p);
    options_.policy = kexp_datasets::nonfinite_policy(p);
    options_.max_features = static_cast<std::size_t>(p.integer("max_features"));
    options_.max_matrix_bytes = static_cast<std::uint64_t>(p.integer("max_matrix_bytes"));
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    return files_.load(context,
                       [&](const TextFile& train, const kexp_datasets::ReadTestFile& test) {
                         return kexp_datasets::libsvm_data(train, test, options_);
                       });
  }

 private:
  kexp_datasets::DataFiles files_;
  kexp_datasets::LibsvmOptions options_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp_datasets::kTrainFileParam,
    kexp_datasets::kTestFileParam,
    kexp::param::integer("dimension", "0",
                         "number of features; 0: the largest index of the training file (a "
                         "larger index in the test file is an error)")
        .at_least(0)
        .at_most(1e7),
    kexp::param::choice("task", "regression", "regression|classification",
                        "classification maps two label values to −1 (smaller) and +1, and keeps "
                        "more as the classes of a multi-class set"),
    kexp::param::choice("on_nonfinite", "error", "error|drop",
                        "a line with a NaN or Inf label or value: an error, or dropped and "
                        "counted on stderr"),
    kexp_datasets::kMaxFileBytesParam,
    kexp_datasets::kMaxFeaturesParam,
    kexp::param::integer("max_matrix_bytes", "4294967296",
                         "largest size of the samples stored dense, d × n × 8 bytes (default "
                         "4 GiB); more is refused before the matrix is made")
        .at_least(8),
};

constexpr kexp::PluginInfo kInfo{
    "libsvm", "1.0.0", "LIBSVM sparse text: <label> <index>:<value> …, indices from 1", kParams,
    kexp::flags::regression | kexp::flags::classification | kexp::flags::reads_files};

}  // namespace

KEXP_PLUGIN(LibsvmDataset, kInfo)
