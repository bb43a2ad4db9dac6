// The files an experiment reads, by content. A dataset's data file or a kernel's model
// file is named by a parameter; the manifest records each with the sha256 of its content
// when the run starts, so that a result folder says which data its rows came from.
// `--resume` refuses to continue a folder whose files have changed since (its old rows
// and the new ones would come from two data sets), and `kexp merge` refuses shards run
// on different files, each naming the file and both hashes.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/experiment.hpp"

namespace kexp::core {

struct InputFile {
  std::string key;      ///< where the experiment names it: "dataset.train"
  std::string written;  ///< as it is written there: "data/train.csv"
  std::string path;     ///< absolute
  std::string sha256;
};

/// Every parameter value of the experiment's entries (the dataset, each kernel and its
/// terms, each solver) that names a regular file, relative to the config's folder or
/// absolute, each file once, with its hash. Throws kexp::Error when one cannot be read.
std::vector<InputFile> input_files(const Experiment& experiment);

nlohmann::ordered_json to_json(const std::vector<InputFile>& files);
/// The files a manifest records; none when it records none (a folder from before).
std::vector<InputFile> inputs_from_json(const nlohmann::json& inputs);

/// What differs between the files a folder was run on (`before`) and `now`, matched by
/// their key and how they are written (so that shards run from copies of the config in
/// other folders compare): a sentence per file whose content changed or that is gone,
/// naming both hashes; empty when none.
std::vector<std::string> changed_inputs(const std::vector<InputFile>& before,
                                        const std::vector<InputFile>& now);

}  // namespace kexp::core
