// LIBSVM's and LIBLINEAR's programs as references for the SVM solvers' tests: data written
// in their format, the programs run where they are installed (Debian's libsvm-tools and
// liblinear-tools), and their model files read back into decision values.
#pragma once

#include <fmt/format.h>

#include <armadillo>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kexp::test {

/// Whether `program` is on the PATH.
inline bool installed(const std::string& program) {
  return std::system(("command -v " + program + " > /dev/null 2>&1").c_str()) == 0;
}

/// X (d × n) and labels or targets y in LIBSVM's text format, every value with 17 digits.
inline void write_libsvm(const std::filesystem::path& file, const arma::mat& X,
                         const arma::vec& y) {
  std::ofstream out(file);
  for (arma::uword i = 0; i < X.n_cols; ++i) {
    out << fmt::format("{:.17g}", y[i]);
    for (arma::uword r = 0; r < X.n_rows; ++r) out << fmt::format(" {}:{:.17g}", r + 1, X(r, i));
    out << '\n';
  }
}

/// A two-class or regression model of svm-train: its support vectors (d × s), their
/// coefficients, ρ and the first label (the one a positive decision value means).
struct LibsvmModel {
  arma::mat sv;
  arma::vec coef;
  double rho = 0, gamma = 0, first_label = 1;
  std::size_t total_sv = 0;
};

inline LibsvmModel read_libsvm_model(const std::filesystem::path& file, arma::uword d) {
  std::ifstream in(file);
  LibsvmModel m;
  std::string line;
  while (std::getline(in, line) && line != "SV") {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "gamma") words >> m.gamma;
    if (key == "rho") words >> m.rho;
    if (key == "label") words >> m.first_label;
    if (key == "total_sv") words >> m.total_sv;
  }
  std::vector<double> coef;
  std::vector<arma::vec> sv;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream words(line);
    double c = 0;
    words >> c;
    coef.push_back(c);
    arma::vec x(d, arma::fill::zeros);
    std::string pair;
    while (words >> pair) {
      const auto colon = pair.find(':');
      x[std::stoul(pair.substr(0, colon)) - 1] = std::stod(pair.substr(colon + 1));
    }
    sv.push_back(x);
  }
  m.coef = arma::vec(coef);
  m.sv.set_size(d, sv.size());
  for (std::size_t i = 0; i < sv.size(); ++i) m.sv.col(i) = sv[i];
  return m;
}

/// f(x) = Σ cᵢ exp(−γ‖xᵢ − x‖²) − ρ at the columns of X, signed so that f > 0 means +1.
inline arma::vec libsvm_gaussian_decisions(const LibsvmModel& m, const arma::mat& X) {
  arma::vec f(X.n_cols);
  for (arma::uword j = 0; j < X.n_cols; ++j) {
    double s = 0;
    for (arma::uword i = 0; i < m.sv.n_cols; ++i)
      s += m.coef[i] * std::exp(-m.gamma * arma::accu(arma::square(m.sv.col(i) - X.col(j))));
    f[j] = s - m.rho;
  }
  return m.first_label == 1 ? f : arma::vec(-f);
}

/// w and the bias weight of a two-class or regression model of liblinear-train (-B 1),
/// signed so that f > 0 means +1.
inline arma::vec liblinear_decisions(const std::filesystem::path& file, const arma::mat& X) {
  std::ifstream in(file);
  std::string line;
  double first_label = 1, bias = -1;
  bool labelled = false;
  while (std::getline(in, line) && line != "w") {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "label") {
      words >> first_label;
      labelled = true;
    }
    if (key == "bias") words >> bias;
  }
  std::vector<double> w;
  double v = 0;
  while (in >> v) w.push_back(v);
  arma::vec f = X.t() * arma::vec(std::vector<double>(w.begin(), w.begin() + X.n_rows));
  if (bias >= 0) f += w[X.n_rows] * bias;
  return !labelled || first_label == 1 ? f : arma::vec(-f);
}

/// Runs a command line; its standard output, or "exit N" when it fails.
inline std::string run_for_output(const std::string& command) {
  std::string out;
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return "exit -1";
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  const int status = pclose(pipe);
  return status == 0 ? out : "exit " + std::to_string(status);
}

/// What LIBSVM and LIBLINEAR print when they stop at their iteration limit.
inline constexpr const char* kReachedLimit = "reaching max number of iterations";

}  // namespace kexp::test
