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

namespace {

std::string label_list(const std::vector<double>& values) {
  std::ostringstream list;
  const std::size_t shown = std::min<std::size_t>(values.size(), 6);
  for (std::size_t i = 0; i < shown; ++i) list << (i ? ", " : "") << number_text(values[i]);
  if (values.size() > shown) list << ", …";
  return list.str();
}

}  // namespace

ClassLabels class_labels(const std::vector<double>& y, const std::string& file) {
  ClassLabels labels;
  labels.values = y;
  std::sort(labels.values.begin(), labels.values.end());
  labels.values.erase(std::unique(labels.values.begin(), labels.values.end()), labels.values.end());
  if (labels.values.size() < 2) {
    throw kexp::DataError(kexp::SourceLocation{file, 0, 0},
                          "task classification needs two distinct labels at least, found " +
                              std::to_string(labels.values.size()) + " (" +
                              label_list(labels.values) +
                              "): a classifier learns nothing from one class; use data with "
                              "two classes or more, or task: regression");
  }
  return labels;
}

void map_labels(std::vector<double>& y, const std::vector<LabelSource>& sources,
                const std::string& file, const ClassLabels& labels, const std::string& train_file) {
  const std::vector<double>& v = labels.values;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const auto at = std::lower_bound(v.begin(), v.end(), y[i]);
    if (at == v.end() || *at != y[i]) {
      const LabelSource& s = sources[i];
      throw kexp::DataError(kexp::SourceLocation{file, s.line, s.column},
                            "label " + number_text(y[i]) + " is not one of the " +
                                (labels.binary() ? std::string("two") : std::to_string(v.size())) +
                                " labels of " + train_file + " (" + label_list(v) + ")");
    }
    if (labels.binary()) y[i] = at == v.begin() ? -1.0 : 1.0;
  }
}

}  // namespace kexp_datasets
