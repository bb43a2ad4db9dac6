// The data of a run: sized and budgeted before any is loaded, then loaded and prepared.
#include "run/run_data.hpp"

#include <fmt/format.h>

#include <exception>

#include "kexp/error.hpp"
#include "plugin/registry.hpp"
#include "run/run_manifest.hpp"

namespace kexp::core {

namespace {

/// Whether a selected cell uses each dataset variant.
std::vector<bool> used_datasets(const Plan& plan, const std::vector<bool>& selected) {
  std::vector<bool> used(plan.datasets.size(), false);
  for (const Cell& c : plan.cells) used[c.dataset] = used[c.dataset] || selected[c.index];
  return used;
}

}  // namespace

RunData load_run_data(const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
                      const std::vector<std::shared_ptr<Dataset>>& datasets, const Limit& budget,
                      bool dry_run) {
  RunData out;
  const std::size_t count = plan.datasets.size();
  out.data.resize(count);
  out.sizes.resize(count);
  out.dims.resize(count);
  const std::vector<bool> used = used_datasets(plan, selected);
  std::vector<DataLoad> loads;
  for (std::size_t d = 0; d < count; ++d) {
    if (!used[d]) continue;
    const Variant& v = plan.datasets[d];
    const DatasetContext context{dataset_seed(e.seed, v, 0), e.base_dir};
    try {
      out.sizes[d] = data_size(*datasets[d], v.params, context);
    } catch (const std::exception& err) {
      throw DataError(e.dataset.where, fmt::format("dataset {} could not state its size: {}",
                                                   v.canonical, err.what()));
    }
    loads.push_back({v.canonical, out.sizes[d], e.repeats});
    out.held += out.sizes[d].bytes * e.repeats;
  }
  if (const auto why = data_refusal(loads, budget)) throw DataError(e.dataset.where, *why);
  for (std::size_t d = 0; d < count; ++d) {
    if (!used[d]) continue;
    const Variant& v = plan.datasets[d];
    try {
      if (dry_run && out.sizes[d].shape) {
        out.dims[d] = planned_dims(out.sizes[d].shape->n, out.sizes[d].shape->d,
                                   v.params.real("test_fraction"), e.validation, v.canonical);
        continue;
      }
      for (int r = 0; r < e.repeats; ++r) {
        const std::uint64_t seed = dataset_seed(e.seed, v, r);
        const DatasetContext context{seed, e.base_dir};
        out.data[d].push_back(load_data(*datasets[d], context, v.params, seed ^ 0x5eedULL,
                                        v.canonical, e.validation));
        check_dataset_alphabet(*v.plugin, out.data[d].back().alphabet);
      }
      out.dims[d] = dims_of(out.data[d].front());
    } catch (const DataError& err) {
      // An error without a line of its own (a missing file): at the dataset block.
      if (err.where().line > 0) throw;
      throw DataError(e.dataset.where, err.what());
    }
  }
  return out;
}

}  // namespace kexp::core
