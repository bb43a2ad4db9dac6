// The memory of a run's data from the datasets' stated shapes or their files' sizes, and
// the refusal of a run whose data alone passes the memory budget.
#include "run/data_budget.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>
#include <variant>

#include "plugin/plugin_call_trace.hpp"
#include "run/budget.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

DataSize data_size(const Dataset& dataset, const Params& params, const DatasetContext& context) {
  DataSize size;
  {
    const PluginCallNote call("asking the dataset for its shape");
    size.shape = dataset.shape(context);
  }
  if (size.shape) {
    const double n = static_cast<double>(size.shape->n);
    const double d = static_cast<double>(size.shape->d);
    size.bytes = 8.0 * n * (d + 1.0);
    size.peak = 2.0 * size.bytes;
    size.what = fmt::format(
        "n = {}, d = {}: X and y, 8·n·(d + 1) = {}, twice that while the test "
        "part is split off",
        size.shape->n, size.shape->d, size_text(size.bytes));
    return size;
  }
  double files = 0;
  std::string names;
  for (const auto& [name, value] : params.values()) {
    const auto* text = std::get_if<std::string>(&value);
    if (text == nullptr || text->empty()) continue;
    fs::path path(*text);
    if (path.is_relative()) path = context.base_dir / path;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    const auto bytes = fs::file_size(path, ec);
    if (ec) continue;
    files += static_cast<double>(bytes);
    names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", *text,
                         size_text(static_cast<double>(bytes)));
  }
  size.bytes = files;
  size.peak = 2.0 * files;
  if (files > 0) {
    size.what = fmt::format(
        "the files it reads, {}, about their size in memory, twice that "
        "while read",
        names);
  }
  return size;
}

double data_peak_bytes(const std::vector<DataLoad>& loads) {
  double held = 0, peak = 0;
  for (const DataLoad& l : loads) {
    for (int r = 0; r < l.repeats; ++r) {
      peak = std::max(peak, held + l.size.peak);
      held += l.size.bytes;
    }
  }
  return peak;
}

std::optional<std::string> data_refusal(const std::vector<DataLoad>& loads, const Limit& budget) {
  const double peak = data_peak_bytes(loads);
  if (peak <= budget.value) return std::nullopt;
  std::string parts;
  for (const DataLoad& l : loads) {
    if (l.size.what.empty()) continue;
    parts += fmt::format("; {}{}: {}", l.label,
                         l.repeats > 1 ? fmt::format(" × {} repeats", l.repeats) : "", l.size.what);
  }
  const std::string source =
      budget.source == "--max-memory" ? budget.source : budget.source + "; --max-memory sets it";
  return fmt::format(
      "the data of this run needs about {} before any cell runs{}; that is more than the memory "
      "budget of {} ({}): use fewer samples, features or repeats, or raise --max-memory",
      size_text(peak), parts, size_text(budget.value), source);
}

}  // namespace kexp::core
