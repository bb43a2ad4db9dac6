// Where the `hmm_marginal` and `hmm_fisher` kernels take their hidden Markov model from:
// fitted by Baum–Welch to the training sequences (every class together: the model is of
// the inputs, not of the labels), or read from a file that gives π, A and B
// (common/hmm_file.hpp, read_hmm), so that a model can be fixed and a result checked by
// hand. A model file is checked when the kernel is created in a run (kexp::config_folder
// says where relative paths start), before anything runs.
#pragma once

#include <kexp/kexp.hpp>

#include <filesystem>
#include <string>

#include "common/hmm_baum_welch.hpp"
#include "common/hmm_file.hpp"
#include "common/hmm_model.hpp"

namespace kexp_kernels {

/// The parameters both kernels declare, each listed in their schema.
constexpr kexp::ParamSpec kHmmStatesParam =
    kexp::param::integer("states", "2", "hidden states S of the model").at_least(1).at_most(1000);
constexpr kexp::ParamSpec kHmmFileParam = kexp::param::string(
    "file", "",
    "an HMM to use as it is (lines `pi …`, `A …`, `B …`; relative to the config file); "
    "default: fitted by Baum–Welch to the training sequences");
constexpr kexp::ParamSpec kHmmIterationsParam =
    kexp::param::integer("iterations", "100", "most Baum–Welch iterations")
        .at_least(0)
        .at_most(1000000);
constexpr kexp::ParamSpec kHmmToleranceParam =
    kexp::param::real("tolerance", "1e-6",
                      "Baum–Welch stops when the log-posterior rises by less than this, "
                      "relative to its size")
        .at_least(0);
constexpr kexp::ParamSpec kHmmPseudoCountParam =
    kexp::param::real("pseudo_count", "1e-3",
                      "added to every expected count of the M-step (a Dirichlet prior), so that "
                      "no probability becomes 0")
        .at_least(0);

struct HmmSource {
  arma::uword states = 2;
  std::string file;
  BaumWelchOptions options;

  explicit HmmSource(const kexp::Params& p)
      : states(static_cast<arma::uword>(p.integer("states"))), file(p.string("file")) {
    options.states = states;
    options.iterations = static_cast<int>(p.integer("iterations"));
    options.tolerance = p.real("tolerance");
    options.pseudo_count = p.real("pseudo_count");
    // In a run, the file is read and checked now, when kexp plans the experiment, so that
    // a bad model stops it before anything runs; fit() reads it again from base_dir.
    if (!file.empty() &&
        (!kexp::config_folder().empty() || std::filesystem::path(file).is_absolute())) {
      const std::filesystem::path path = kexp::resolve_config_path(file);
      const Hmm m = read_hmm(path);
      if (m.states() != states) {
        throw kexp::InvalidArgument(
            "the HMM of " + path.string() + " has " + std::to_string(m.states()) +
            " states; the kernel has states: " + std::to_string(states) + ": make them agree");
      }
    }
  }

  /// The model for these training sequences, over data.alphabet_size symbols. Throws
  /// kexp::InvalidArgument for vectors, or a file's model of another size.
  [[nodiscard]] Hmm model(const kexp::KernelFitData& data, const char* kernel) const {
    const arma::uword M = data.alphabet_size;
    if (M == 0) {
      throw kexp::InvalidArgument(std::string("the ") + kernel +
                                  " kernel takes sequences; it was fitted on vectors");
    }
    if (!file.empty()) {
      std::filesystem::path path(file);
      if (path.is_relative()) path = data.base_dir / path;
      Hmm m = read_hmm(path);
      if (m.states() != states || m.symbols() != M) {
        throw kexp::InvalidArgument(
            "the HMM of " + path.string() + " has " + std::to_string(m.states()) + " states and " +
            std::to_string(m.symbols()) +
            " symbols; the kernel has states: " + std::to_string(states) + " and the data " +
            std::to_string(M) + " symbols: make them agree");
      }
      return m;
    }
    BaumWelchOptions o = options;
    o.symbols = M;
    o.seed = data.seed;
    return baum_welch(sequences_of(*data.X, M), o).model;
  }
};

}  // namespace kexp_kernels
