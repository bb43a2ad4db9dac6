// hmm: sequences sampled from hidden Markov models; the label is the model that
// generated each one.
//
// `models` HMMs with `states` hidden states over `symbols` symbols
// (common/hmm_model.hpp), drawn once from `model_seed`, so that every repeat and dataset
// variant samples the same models: a shared model θ₀ and one model θ_m of each class, each
// from a flat Dirichlet, mixed as
//
//   θ⁽ᵐ⁾ = (1 − separation)·θ₀ + separation·θ_m        (π, each row of A and of B),
//
// so that `separation` → 0 makes the classes indistinguishable and 1 as different as two
// random models. Sequence i comes from model i mod `models` (classes balanced), its length
// uniform in [min_length, max_length], its path and symbols drawn from the run's seed,
// straight into its column of X.
// Two models: y = −1 for the first, +1 for the second (classification). More: y is the
// model's index 0 … models − 1 and the task regression (kexp's classifiers are binary).
//
// The symbols are named a, b, c, … (s0, s1, … past 26). Sequences are stored in one
// max_length × n matrix (kexp/dataset.hpp's encoding).
#include <kexp/kexp.hpp>

#include <random>
#include <string>
#include <vector>

#include "common/hmm_model.hpp"

namespace {

using kexp_kernels::Hmm;

class HmmDataset final : public kexp::Dataset {
 public:
  explicit HmmDataset(const kexp::Params& p)
      : n_(static_cast<arma::uword>(p.integer("n"))),
        states_(static_cast<arma::uword>(p.integer("states"))),
        symbols_(static_cast<arma::uword>(p.integer("symbols"))),
        models_(static_cast<unsigned>(p.integer("models"))),
        min_length_(static_cast<std::size_t>(p.integer("min_length"))),
        max_length_(static_cast<std::size_t>(p.integer("max_length"))),
        separation_(p.real("separation")),
        model_seed_(static_cast<std::uint64_t>(p.integer("model_seed"))) {
    if (min_length_ > max_length_) {
      throw kexp::InvalidArgument("min_length " + std::to_string(min_length_) +
                                  " is more than max_length " + std::to_string(max_length_) +
                                  "; make min_length ≤ max_length");
    }
    constexpr double kMaxBytes = 4294967296.0;
    if (8.0 * static_cast<double>(n_) * static_cast<double>(max_length_) > kMaxBytes) {
      throw kexp::InvalidArgument(
          "n × max_length = " + std::to_string(n_) + " × " + std::to_string(max_length_) +
          " symbols stored as doubles would take more than 4 GiB; lower n or max_length");
    }
  }

  /// The models the sequences come from (the same for every seed of the run).
  std::vector<Hmm> models() const {
    const Hmm shared = kexp_kernels::random_hmm(states_, symbols_, model_seed_);
    std::vector<Hmm> out;
    for (unsigned m = 0; m < models_; ++m) {
      const Hmm own = kexp_kernels::random_hmm(states_, symbols_, model_seed_ + 1 + m);
      Hmm mixed;
      mixed.pi = (1 - separation_) * shared.pi + separation_ * own.pi;
      mixed.A = (1 - separation_) * shared.A + separation_ * own.A;
      mixed.B = (1 - separation_) * shared.B + separation_ * own.B;
      out.push_back(std::move(mixed));
    }
    return out;
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    const std::vector<Hmm> models = this->models();
    std::mt19937_64 engine(context.seed);
    std::uniform_int_distribution<std::size_t> length(min_length_, max_length_);
    kexp::Data data;
    data.task = models_ == 2 ? kexp::Task::Classification : kexp::Task::Regression;
    data.X.set_size(max_length_, n_);
    data.X.fill(-1.0);
    data.y.set_size(n_);
    for (const Hmm& model : models) model.check();
    for (arma::uword i = 0; i < n_; ++i) {
      const unsigned m = static_cast<unsigned>(i % models_);
      kexp_kernels::sample_into(models[m], length(engine), engine, data.X.colptr(i));
      data.y[i] = models_ == 2 ? (m == 0 ? -1.0 : 1.0) : static_cast<double>(m);
    }
    for (arma::uword s = 0; s < symbols_; ++s) {
      data.alphabet.push_back(symbols_ <= 26 ? std::string(1, static_cast<char>('a' + s))
                                             : "s" + std::to_string(s));
    }
    return data;
  }

 private:
  arma::uword n_, states_, symbols_;
  unsigned models_;
  std::size_t min_length_, max_length_;
  double separation_;
  std::uint64_t model_seed_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("n", "200", "number of sequences (training and test together)")
        .at_least(2)
        .at_most(1e8),
    kexp::param::integer("states", "2", "hidden states S of each model").at_least(1).at_most(1000),
    kexp::param::integer("symbols", "4", "alphabet size M").at_least(1).at_most(100000),
    kexp::param::integer("models", "2",
                         "number of models; 2: classification, more: y is the model's index")
        .at_least(2)
        .at_most(1000),
    kexp::param::integer("min_length", "50", "shortest sequence").at_least(1).at_most(1e7),
    kexp::param::integer("max_length", "50", "longest sequence").at_least(1).at_most(1e7),
    kexp::param::real("separation", "0.5",
                      "how far each class's model is from the shared one: 0 the same, 1 "
                      "independent random models")
        .greater_than(0)
        .at_most(1),
    kexp::param::integer("model_seed", "1",
                         "seed of the models (the sequences follow the run's seed)")
        .at_least(0),
};

constexpr kexp::PluginInfo kInfo{
    "hmm", "1.0.0",
    "sequences sampled from `models` hidden Markov models (S states, M symbols), "
    "θ⁽ᵐ⁾ = (1 − separation)θ₀ + separation·θ_m; y the model (±1 for two)",
    kParams, kexp::flags::classification | kexp::flags::regression | kexp::flags::sequences};

}  // namespace

KEXP_PLUGIN(HmmDataset, kInfo)
