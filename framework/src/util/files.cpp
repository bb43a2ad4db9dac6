// Files written whole or not at all (into a temporary file beside the target, then
// renamed over it; the temporary file removed on failure), and a text file read whole.
#include "util/files.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "kexp/error.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

void write_file_atomically(const fs::path& file, const std::string& content) {
  const fs::path tmp = file.string() + fmt::format(".tmp{}", ::getpid());
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    if (!out) throw Error(fmt::format("cannot write {}", tmp.string()));
    out << content;
    out.close();
    if (!out) {
      fs::remove(tmp, ec);  // no temporary file left behind
      throw Error(fmt::format("writing {} failed (disk full?)", file.string()));
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error(fmt::format("cannot move {} into place: {}", file.string(), ec.message()));
  }
}

std::string read_text_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace kexp::core
