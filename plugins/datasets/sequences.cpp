// sequences: sequences of symbols read from text files, one per line after its target
// (datasets/sequences_reader.hpp has the format).
//
// `train` (and the optional `test`) are paths relative to the config file; a `test` file
// is the test set as it is. With `task: classification` the target takes two values at
// least in the training set: two are mapped to ±1 (the smaller to −1), more are kept as the
// classes of a multi-class set. A file is read only if
// it is a regular file of at most `max_file_bytes` (1 GiB).
#include <kexp/kexp.hpp>

#include <optional>
#include <string>

#include "datasets/sequences_reader.hpp"

namespace {

using kexp_datasets::TextFile;

class SequencesDataset final : public kexp::Dataset {
 public:
  explicit SequencesDataset(const kexp::Params& p) : files_(p) {
    options_.tokens = p.string("tokens") == "words" ? kexp_datasets::Tokens::Words
                                                    : kexp_datasets::Tokens::Characters;
    options_.alphabet = p.string("alphabet");
    options_.task = kexp_datasets::task_of(p);
    options_.max_length = static_cast<std::size_t>(p.integer("max_length"));
    options_.max_matrix_bytes = static_cast<std::uint64_t>(p.integer("max_matrix_bytes"));
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    return files_.load(context,
                       [&](const TextFile& train, const kexp_datasets::ReadTestFile& test) {
                         return kexp_datasets::sequence_data(train, test, options_);
                       });
  }

 private:
  kexp_datasets::DataFiles files_;
  kexp_datasets::SequenceOptions options_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp_datasets::kTrainFileParam,
    kexp_datasets::kTestFileParam,
    kexp::param::choice("tokens", "characters", "characters|words",
                        "characters: each byte of the sequence is a symbol; words: symbols "
                        "are separated by spaces"),
    kexp::param::string("alphabet", "",
                        "the symbols (ACGT; for words separated by spaces); default: the "
                        "distinct symbols of the training file, in byte order"),
    kexp::param::choice("task", "classification", "regression|classification",
                        "classification maps two target values to −1 (smaller) and +1, and "
                        "keeps more as the classes of a multi-class set"),
    kexp::param::integer("max_length", "100000",
                         "longest sequence read; sequences are stored padded to the longest")
        .at_least(1),
    kexp_datasets::kMaxFileBytesParam,
    kexp::param::integer("max_matrix_bytes", "4294967296",
                         "largest size of the sequences stored padded to the longest, "
                         "8 × n × L bytes (default 4 GiB); more is refused before the matrix "
                         "is made")
        .at_least(8),
};

constexpr kexp::PluginInfo kInfo{
    "sequences", "1.0.0",
    "sequences of symbols, one per line after its target: `+1 ACGTTGCA`; the alphabet "
    "declared or read from the training file",
    kParams,
    kexp::flags::regression | kexp::flags::classification | kexp::flags::reads_files |
        kexp::flags::sequences};

}  // namespace

KEXP_PLUGIN(SequencesDataset, kInfo)
