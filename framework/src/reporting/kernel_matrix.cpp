// Gram matrices as .npy files and the heat map of K, samples ordered by target.
#include "reporting/kernel_matrix.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kexp/error.hpp"
#include "reporting/gnuplot.hpp"
#include "util/files.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

/// Appends the doubles little-endian, as .npy's '<f8' says.
void append_little_endian(std::string& out, const double* values, std::size_t count) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  out.append(reinterpret_cast<const char*>(values), count * sizeof(double));
#else
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, values + i, sizeof bits);
    for (int byte = 0; byte < 8; ++byte) out += static_cast<char>((bits >> (8 * byte)) & 0xff);
  }
#endif
}

/// A file written through a temporary file beside it, renamed into place when whole; the
/// errors name the file and the system's reason, and a failure leaves nothing behind.
class StreamedFile {
 public:
  explicit StreamedFile(fs::path file)
      : file_(std::move(file)), tmp_(file_.string() + fmt::format(".tmp{}", ::getpid())) {
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) fail("cannot create");
  }
  ~StreamedFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!done_) ::unlink(tmp_.c_str());
  }
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;

  void write(const std::string& bytes) {
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("cannot write");
      p += n;
      left -= static_cast<std::size_t>(n);
    }
  }

  void finish() {
    if (::close(fd_) != 0) {
      fd_ = -1;
      fail("cannot write");
    }
    fd_ = -1;
    if (::rename(tmp_.c_str(), file_.c_str()) != 0) fail("cannot move into place");
    done_ = true;
  }

 private:
  [[noreturn]] void fail(const char* doing) const {
    const int error = errno;
    throw Error(fmt::format("{} {}: {}{}", doing, file_.string(), std::strerror(error),
                            error == ENOSPC ? " (the disk is full)" : ""));
  }

  fs::path file_;
  std::string tmp_;
  int fd_ = -1;
  bool done_ = false;
};

/// Streams K (n × m) to `file` as .npy, a few columns at a time; with `lower_only`, K is
/// square and only its lower triangle is read, the file holding the symmetric whole.
void write_npy(const fs::path& file, const arma::mat& K, bool lower_only) {
  StreamedFile out(file);
  out.write(npy_header(K.n_rows, K.n_cols));
  const arma::uword n = K.n_rows;
  // About 4 MB a write.
  const arma::uword columns_per_write =
      std::max<arma::uword>(1, (1u << 19) / std::max<arma::uword>(n, 1));
  std::string chunk;
  std::vector<double> column(n);
  for (arma::uword j0 = 0; j0 < K.n_cols; j0 += columns_per_write) {
    const arma::uword j1 = std::min<arma::uword>(K.n_cols, j0 + columns_per_write);
    chunk.clear();
    for (arma::uword j = j0; j < j1; ++j) {
      if (!lower_only) {
        append_little_endian(chunk, K.colptr(j), n);
        continue;
      }
      for (arma::uword i = 0; i < j; ++i) column[i] = K(j, i);  // above the diagonal
      for (arma::uword i = j; i < n; ++i) column[i] = K(i, j);
      append_little_endian(chunk, column.data(), n);
    }
    out.write(chunk);
  }
  out.finish();
}

}  // namespace

std::string npy_header(arma::uword n, arma::uword m) {
  std::string header =
      fmt::format("{{'descr': '<f8', 'fortran_order': True, 'shape': ({}, {}), }}", n, m);
  // magic (6) + version (2) + header length (2) + header, a multiple of 64, ends in '\n'.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  return out + header;
}

double npy_file_bytes(arma::uword n, arma::uword m) {
  return static_cast<double>(npy_header(n, m).size()) +
         8.0 * static_cast<double>(n) * static_cast<double>(m);
}

std::string npy_bytes(const arma::mat& m) {
  // Column by column, as Armadillo stores them (fortran_order), each little-endian.
  std::string out = npy_header(m.n_rows, m.n_cols);
  out.reserve(out.size() + 8 * m.n_elem);
  append_little_endian(out, m.memptr(), m.n_elem);
  return out;
}

std::string kernel_heat_map_script(const arma::mat& K, const arma::vec& order_by,
                                   const KernelHeatMap& map, bool lower_only) {
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
        for (arma::uword j = start(b); j < start(b + 1); ++j) {
          const arma::uword r = order(i), c = order(j);
          sum += lower_only && c > r ? K(c, r) : K(r, c);
        }
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
  fs::path file = dir / (stem + "-K.npy");
  write_npy(file, K, lower_only);
  map.name = stem + "-K";
  const std::string program = plot::gnuplot_program();
  if (plot::gnuplot_runs(program)) {
    write_file_atomically(dir / (map.name + ".gp"),
                          kernel_heat_map_script(K, targets, map, lower_only));
    (void)plot::draw(program, dir, map.name);  // the .gp stays to run by hand if it fails
  }
  return file;
}

fs::path write_cross_gram_matrix(const ResultFolder& folder, const std::string& stem,
                                 const arma::mat& K_cross) {
  fs::create_directories(folder.kernels_dir());
  fs::path file = folder.kernels_dir() / (stem + "-K-test.npy");
  write_npy(file, K_cross, false);
  return file;
}

}  // namespace kexp::core
