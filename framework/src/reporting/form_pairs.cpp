// Primal-dual pairs of a result folder's cells: each primal cell with the dual cell of the
// same model, and their largest prediction difference, from the rows, else from
// predictions/ (reporting/analysis.hpp: find_pairs).

#include <algorithm>
#include <cmath>

#include "reporting/analysis.hpp"
#include "reporting/result_folder.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

/// y_pred of a predictions file, or empty.
std::vector<double> read_predictions(const fs::path& file) {
  std::vector<double> out;
  const CsvTable t = [&] {
    try {
      return read_csv(file);
    } catch (const std::exception&) {
      return CsvTable{};
    }
  }();
  // A classifier's class hides how far apart two forms are: compare its scores.
  const auto col = t.column("decision") ? t.column("decision") : t.column("y_pred");
  if (!col) return out;
  for (const auto& row : t.rows) {
    double v = 0;
    if (*col < row.size() && parse_number(row[*col], v)) out.push_back(v);
  }
  return out;
}

/// The largest |ŷ − ŷ′| of two cells over the repeats both have, from their
/// predictions/<cell>-<repeat>.csv files; −1 when there are none to compare.
double predictions_max_diff(const CellSummary& p, const CellSummary& d, const fs::path& folder) {
  double out = -1;
  for (std::size_t r = 0; r < std::max(p.runs, d.runs); ++r) {
    const auto a =
        read_predictions(ResultFolder(folder).prediction_file(p.cell, std::to_string(r)));
    const auto b =
        read_predictions(ResultFolder(folder).prediction_file(d.cell, std::to_string(r)));
    if (a.empty() || a.size() != b.size()) continue;
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
    out = std::max(out, m);
  }
  return out;
}

/// The dual cells of one dataset and kernel variant whose solvers have the same plugin and
/// the same parameters set, indexed by the values of the parameters a primal solver shares
/// with them, built once per set of shared names.
struct DualKind {
  std::vector<std::string> names;  ///< the solver's parameters with a value, in order
  std::vector<std::size_t> cells;  ///< indices into the cells, in order
  /// shared names (joined) → the values of those names → the cells that have them
  std::map<std::string, std::map<std::string, std::vector<std::size_t>>> by_shared;
};

}  // namespace

std::vector<FormPair> find_pairs(const std::vector<CellSummary>& cells, const fs::path& folder,
                                 std::size_t* compared) {
  // Two cells pair only within one dataset and kernel variant: the dual cells are put in
  // buckets by that, and in a bucket by the plugin and parameter names of their solver,
  // so that each primal cell looks its counterparts up by the values of the parameters it
  // shares with each kind (sweep/pairing.hpp), instead of trying every dual cell.
  const auto bucket_of = [](const CellSummary& c) {
    return c.dataset + '\n' + c.kernel + '\n' + c.params_of("dataset") + '\n' +
           c.params_of("kernel");
  };
  std::map<std::string, std::vector<DualKind>> buckets;
  std::vector<SolverSide> sides(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    sides[i] = solver_side(cells[i]);
    if (cells[i].form != "dual") continue;
    std::vector<std::string> names;
    for (const auto& [name, value] : sides[i].params) names.push_back(name);
    std::vector<DualKind>& kinds = buckets[bucket_of(cells[i])];
    const auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const DualKind& k) {
      return k.names == names && cells[k.cells.front()].solver == cells[i].solver;
    });
    if (kind != kinds.end()) {
      kind->cells.push_back(i);
    } else {
      kinds.push_back(DualKind{names, {i}, {}});
    }
  }
  std::vector<FormPair> pairs;
  for (std::size_t pi = 0; pi < cells.size(); ++pi) {
    const CellSummary& p = cells[pi];
    if (p.form != "primal") continue;
    const auto bucket = buckets.find(bucket_of(p));
    if (bucket == buckets.end()) continue;
    std::vector<std::size_t> matched;
    for (DualKind& kind : bucket->second) {
      // The names they share, and the primal's values of them. Whether those names
      // include one that counts (not only how a solver runs) depends on the names alone:
      // asked of the rule with the values made equal.
      std::string shared, values;
      SolverSide primal_names{"primal", {}}, dual_names{"dual", {}};
      for (const std::string& name : kind.names) {
        const auto it = sides[pi].params.find(name);
        if (it == sides[pi].params.end()) continue;
        shared += name + '\n';
        values += it->second + '\n';
        primal_names.params[name];
        dual_names.params[name];
      }
      if (!counterparts(primal_names, dual_names)) continue;
      auto [index, fresh] = kind.by_shared.try_emplace(shared);
      if (fresh) {
        for (const std::size_t di : kind.cells) {
          std::string key;
          for (const std::string& name : kind.names) {
            if (sides[pi].params.count(name) > 0) key += sides[di].params.at(name) + '\n';
          }
          index->second[key].push_back(di);
        }
      }
      const auto found = index->second.find(values);
      if (found == index->second.end()) continue;
      for (const std::size_t di : found->second) {
        if (compared != nullptr) ++*compared;
        if (counterparts(sides[pi], sides[di])) matched.push_back(di);
      }
    }
    std::sort(matched.begin(), matched.end());
    for (const std::size_t di : matched) {
      const CellSummary& d = cells[di];
      FormPair pair{&p, &d, -1};
      if (d.paired_with == p.cell) pair.prediction_max_diff = d.prediction_max_diff;
      if (p.paired_with == d.cell) pair.prediction_max_diff = p.prediction_max_diff;
      if (pair.prediction_max_diff < 0 && !folder.empty()) {
        pair.prediction_max_diff = predictions_max_diff(p, d, folder);
      }
      pairs.push_back(pair);
    }
  }
  return pairs;
}

}  // namespace kexp::core
