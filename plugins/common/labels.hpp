// The task of a file dataset and its labels: the two labels of a binary classification
// set found in the training file and mapped to ±1, with the place of each in its file for
// messages. What the csv and libsvm readers share.
#pragma once

#include <kexp/kexp.hpp>

#include <string>
#include <vector>

namespace kexp_datasets {

/// The task a dataset's `task` parameter names.
kexp::Task task_of(const kexp::Params& params);

/// Where in its file a label came from, for messages.
struct LabelSource {
  int line = 0;
  int column = 0;
};

/// The two label values of a binary classification set: the smaller becomes −1, the
/// larger +1 (so 0/1, 1/2 and −1/+1 all map to −1/+1).
struct BinaryLabels {
  double negative = -1, positive = 1;
};

/// Finds the two labels of the training set; throws unless there are exactly two.
BinaryLabels binary_labels(const std::vector<double>& y, const std::string& file);

/// Maps y, read from `file`, to ±1 in place; a value that is neither label is an error at
/// its source.
void map_labels(std::vector<double>& y, const std::vector<LabelSource>& sources,
                const std::string& file, const BinaryLabels& labels, const std::string& train_file);

}  // namespace kexp_datasets
