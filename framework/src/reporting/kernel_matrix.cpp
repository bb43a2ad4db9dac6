// Gram matrices as .npy files and the heat map of K, samples ordered by target.
#include "reporting/kernel_matrix.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

#include "reporting/gnuplot.hpp"
#include "util/files.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

std::string npy_bytes(const arma::mat& m) {
  std::string header = fmt::format("{{'descr': '<f8', 'fortran_order': True, 'shape': ({}, {}), }}",
                                   m.n_rows, m.n_cols);
  // magic (6) + version (2) + header length (2) + header, a multiple of 64, ends in '\n'.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  out.reserve(out.size() + 8 * m.n_elem);
  // Column by column, as Armadillo stores them (fortran_order), each little-endian.
  for (const double v : m) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    for (int byte = 0; byte < 8; ++byte) out += static_cast<char>((bits >> (8 * byte)) & 0xff);
  }
  return out;
}

std::string kernel_heat_map_script(const arma::mat& K, const arma::vec& order_by,
                                   const KernelHeatMap& map) {
  const arma::uword n = K.n_rows;
  const arma::uvec order = arma::stable_sort_index(order_by);
  const arma::uword cells = std::min(n, kHeatMapCells);
  // Block b holds the samples of ranks [start(b), start(b + 1)).
  const auto start = [&](arma::uword b) { return b * n / cells; };
  std::string s =
      fmt::format("# kexp plot; run `gnuplot {0}.gp` here to redraw {0}.svg\n", map.name);
  // Wide enough for the colour bar's label beside the square plot (760 pixels cut it).
  s += "set terminal svg size 840,700 dynamic noenhanced font 'sans,11' background rgb 'white'\n";
  s += "set output " + plot::gp_string(map.name + ".svg") + "\n";
  s += "set title " + plot::gp_string(map.title) + "\n";
  const std::string by = map.classification ? "label" : "target";
  s += "set xlabel " + plot::gp_string("training points, ordered by " + by) + "\n";
  s += "set ylabel " + plot::gp_string("training points, ordered by " + by) + "\n";
  s += "set cblabel 'K[i, j] = k(xᵢ, xⱼ)' offset -1,0\nset rmargin 14\nset size square\nset tics "
       "out\n";
  s += fmt::format("set xrange [0:{0}]\nset yrange [{0}:0]\n", n);
  const double step = static_cast<double>(n) / static_cast<double>(cells);
  if (cells < n) {
    s += fmt::format(
        "set label 1 {} at screen 0.01, screen 0.02 left font ',9'\n",
        plot::gp_string(fmt::format(
            "each cell: the mean of K over a block of about {0:.3g} × {0:.3g} points", step)));
  }
  s += "$K << EOD\n";
  for (arma::uword a = 0; a < cells; ++a) {
    for (arma::uword b = 0; b < cells; ++b) {
      double sum = 0;
      for (arma::uword i = start(a); i < start(a + 1); ++i) {
        for (arma::uword j = start(b); j < start(b + 1); ++j) sum += K(order(i), order(j));
      }
      const auto count = static_cast<double>((start(a + 1) - start(a)) * (start(b + 1) - start(b)));
      s += fmt::format("{}{:.6g}", b == 0 ? "" : " ", sum / count);
    }
    s += "\n";
  }
  s += "EOD\n";
  // Column index → x, row index → y, each cell centred on its block of ranks.
  s += fmt::format(
      "plot $K matrix using (($1 + 0.5) * {0}):(($2 + 0.5) * {0}):3 with image "
      "notitle\n",
      step);
  return s;
}

fs::path write_gram_matrix(const ResultFolder& folder, const std::string& stem, const arma::mat& K,
                           bool lower_only, const arma::vec& targets, KernelHeatMap map) {
  const fs::path dir = folder.kernels_dir();
  fs::create_directories(dir);
  arma::mat filled;  // a copy only where the upper triangle must be filled in
  if (lower_only) filled = arma::symmatl(K);
  const arma::mat& whole = lower_only ? filled : K;
  fs::path file = dir / (stem + "-K.npy");
  write_file_atomically(file, npy_bytes(whole));
  map.name = stem + "-K";
  const std::string program = plot::gnuplot_program();
  if (plot::gnuplot_runs(program)) {
    write_file_atomically(dir / (map.name + ".gp"), kernel_heat_map_script(whole, targets, map));
    (void)plot::draw(program, dir, map.name);  // the .gp stays to run by hand if it fails
  }
  return file;
}

fs::path write_cross_gram_matrix(const ResultFolder& folder, const std::string& stem,
                                 const arma::mat& K_cross) {
  fs::create_directories(folder.kernels_dir());
  fs::path file = folder.kernels_dir() / (stem + "-K-test.npy");
  write_file_atomically(file, npy_bytes(K_cross));
  return file;
}

}  // namespace kexp::core
