// The task of a file dataset and its labels: the labels of a classification set found in
// the training file, two mapped to ±1 and more kept as they are (multi-class), with the
// place of each in its file for messages. What the csv, libsvm and sequences readers share.
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

/// The labels of a classification set, in increasing order. Two are binary: the smaller
/// becomes −1, the larger +1 (so 0/1, 1/2 and −1/+1 all map to −1/+1), Task::Classification.
/// More are the classes of a multi-class set, kept as they are, Task::Multiclass.
struct ClassLabels {
  std::vector<double> values;
  [[nodiscard]] bool binary() const { return values.size() == 2; }
  [[nodiscard]] kexp::Task task() const {
    return binary() ? kexp::Task::Classification : kexp::Task::Multiclass;
  }
};

/// Finds the labels of the training set; throws unless there are two at least.
ClassLabels class_labels(const std::vector<double>& y, const std::string& file);

/// Maps y, read from `file`, to ±1 in place for two labels, or checks it for more; a value
/// that is not a label of the training set is an error at its source.
void map_labels(std::vector<double>& y, const std::vector<LabelSource>& sources,
                const std::string& file, const ClassLabels& labels, const std::string& train_file);

}  // namespace kexp_datasets
