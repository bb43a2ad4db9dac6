// csv: a data set read from delimited text files, one sample per row.
//
// `train` (and the optional `test`) are paths relative to the config file. Every row has
// the same number of fields; one column is the target (`target`: a column name from the
// header, or an index counted from 0, negative from the end; default the last column), the
// others are the features, in file order. A `test` file is the test set as it is, in its
// row order: it needs the same columns as the training file (the same names when both
// have a header).
//
// The first line is a header when `header: true`, or with `header: auto` when none of its
// fields is a number. Fields are separated by `delimiter` (`,` `;` `tab`, or `whitespace`
// for runs of spaces and tabs); with a one-character delimiter a field may be quoted as in
// RFC 4180. Blank lines are skipped. Numbers are read in the C locale.
//
// A field that is empty or NA is missing; a missing, NaN or ±Inf value is an error, or with
// `on_nonfinite: drop` its row is left out and the count reported on stderr. With
// `task: classification` the target takes two values at least in the training set: two are
// mapped to ±1 (the smaller to −1), more are the classes of a multi-class set, kept as they
// are; a test value that is not a training class is an error at its line.
//
// A column name appears at most once in a header. A file is read only if it is a regular
// file of at most `max_file_bytes` (1 GiB), with at most `max_features` (100 000) features.
#include <kexp/kexp.hpp>

#include <optional>
#include <string>

#include "datasets/csv_reader.hpp"

namespace {

using kexp_datasets::TextFile;

class CsvDataset final : public kexp::Dataset {
 public:
  explicit CsvDataset(const kexp::Params& p) : files_(p) {
    options_.target = p.string("target");
    options_.header = p.string("header");
    options_.delimiter = kexp_datasets::csv_delimiter(p.string("delimiter"));
    options_.task = kexp_datasets::task_of(p);
    options_.policy = kexp_datasets::nonfinite_policy(p);
    options_.max_features = static_cast<std::size_t>(p.integer("max_features"));
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    return files_.load(context,
                       [&](const TextFile& train, const kexp_datasets::ReadTestFile& test) {
                         return kexp_datasets::csv_data(train, test, options_);
                       });
  }

 private:
  kexp_datasets::DataFiles files_;
  kexp_datasets::CsvOptions options_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp_datasets::kTrainFileParam,
    kexp_datasets::kTestFileParam,
    kexp::param::string("target", "",
                        "target column: a header name, or an index from 0 (negative: from "
                        "the end); default the last column"),
    kexp::param::choice("header", "auto", "auto|true|false",
                        "whether the first line is a header; auto: when none of its fields "
                        "is a number"),
    kexp::param::choice("delimiter", ",", ",|;|tab|whitespace",
                        "field separator; whitespace: runs of spaces and tabs"),
    kexp::param::choice("task", "regression", "regression|classification",
                        "classification maps two target values to −1 (smaller) and +1, and "
                        "keeps more as the classes of a multi-class set"),
    kexp::param::choice("on_nonfinite", "error", "error|drop",
                        "a row with NaN, Inf or a missing value (empty, NA): an error, or "
                        "dropped and counted on stderr"),
    kexp_datasets::kMaxFileBytesParam,
    kexp_datasets::kMaxFeaturesParam,
};

constexpr kexp::PluginInfo kInfo{
    "csv", "1.0.0", "rows of a delimited text file; one column is the target", kParams,
    kexp::flags::regression | kexp::flags::classification | kexp::flags::reads_files};

}  // namespace

KEXP_PLUGIN(CsvDataset, kInfo)
