// The labels of a binary classification set (common/labels.hpp).
#include "common/labels.hpp"

#include <algorithm>
#include <sstream>

#include "common/text_fields.hpp"

namespace kexp_datasets {

kexp::Task task_of(const kexp::Params& params) {
  return params.string("task") == "classification" ? kexp::Task::Classification
                                                   : kexp::Task::Regression;
}

BinaryLabels binary_labels(const std::vector<double>& y, const std::string& file) {
  std::vector<double> values = y;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() != 2) {
    std::ostringstream list;
    const std::size_t shown = std::min<std::size_t>(values.size(), 6);
    for (std::size_t i = 0; i < shown; ++i) list << (i ? ", " : "") << number_text(values[i]);
    if (values.size() > shown) list << ", …";
    throw kexp::DataError(kexp::SourceLocation{file, 0, 0},
                          "task classification needs exactly two distinct labels, found " +
                              std::to_string(values.size()) + " (" + list.str() +
                              "); kexp's classifiers are binary: relabel the data, or use task: "
                              "regression");
  }
  return {values[0], values[1]};
}

void map_labels(std::vector<double>& y, const std::vector<LabelSource>& sources,
                const std::string& file, const BinaryLabels& labels,
                const std::string& train_file) {
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] == labels.negative) {
      y[i] = -1.0;
    } else if (y[i] == labels.positive) {
      y[i] = 1.0;
    } else {
      const LabelSource& s = sources[i];
      throw kexp::DataError(kexp::SourceLocation{file, s.line, s.column},
                            "label " + number_text(y[i]) + " is not one of the two labels of " +
                                train_file + " (" + number_text(labels.negative) + ", " +
                                number_text(labels.positive) + ")");
    }
  }
}

}  // namespace kexp_datasets
