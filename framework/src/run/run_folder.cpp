// The result folder a run writes to (run/run_folder.hpp).
#include "run/run_folder.hpp"

#include <fmt/format.h>

namespace kexp::core {

namespace fs = std::filesystem;

ResultFolder run_folder(const Experiment& e, const RunOptions& options) {
  fs::path dir;
  std::string origin;
  if (options.resume) {
    dir = *options.resume;
    origin = "--resume";
  } else if (!options.out.empty()) {
    dir = options.out;
    origin = "--out";
  } else {
    // output.dir, as every path of the experiment file, is relative to the file's folder;
    // without it, results/<experiment> in the working directory.
    dir = e.output.dir.empty() ? fs::path("results") / e.name
                               : (e.base_dir / e.output.dir).lexically_normal();
    origin = e.output.dir.empty() ? "the experiment name" : "output.dir";
    if (options.shard) {
      dir += fmt::format("-shard-{}-of-{}", options.shard->index, options.shard->count);
    }
  }
  check_folder_path(dir, origin);
  return ResultFolder(dir);
}

}  // namespace kexp::core
