// The shape check of a YAML document before its values are read: a document that
// expands past a limit of values (through aliases), an alias that contains itself, a key
// that is not a plain name, and a key given twice in one map are errors at their place.
#include "config/structure.hpp"

#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "kexp/error.hpp"

namespace kexp::core {

namespace {

class StructureCheck {
 public:
  explicit StructureCheck(const std::filesystem::path& file) : file_(file) {}

  void visit(const YAML::Node& node) {
    if (++nodes_ > kMaxDocumentNodes) {
      throw ConfigError(location_of(node, file_), "",
                        fmt::format("the file expands to more than {} values (through YAML "
                                    "aliases?); an experiment is far smaller: write it out",
                                    kMaxDocumentNodes));
    }
    for (const YAML::Node& ancestor : path_) {
      if (ancestor.is(node)) {
        throw ConfigError(location_of(node, file_), "",
                          "a YAML alias refers to a node that contains it (a cycle); write the "
                          "value out instead");
      }
    }
    if (!node.IsMap() && !node.IsSequence()) return;
    path_.push_back(node);
    if (node.IsMap()) {
      std::map<std::string, YAML::Mark> seen;
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) {
          // `? key` with a list, a map or nothing as the key
          throw ConfigError(
              location_of(kv.first.IsDefined() && !kv.first.IsNull() ? kv.first : kv.second, file_),
              "",
              "a key of this map is not a plain name (a '?' key that is a list, a "
              "map or empty); write keys as names, e.g. 'dir: results'");
        }
        {
          const auto [it, fresh] = seen.emplace(kv.first.Scalar(), kv.first.Mark());
          if (!fresh) {
            throw ConfigError(location_of(kv.first, file_), kv.first.Scalar(),
                              fmt::format("key '{}' is given twice in this map (first at line "
                                          "{}); keep one",
                                          kv.first.Scalar(), it->second.line + 1));
          }
        }
        visit(kv.first);
        visit(kv.second);
      }
    } else {
      for (const auto& child : node) visit(child);
    }
    path_.pop_back();
  }

 private:
  const std::filesystem::path& file_;
  std::vector<YAML::Node> path_;
  std::size_t nodes_ = 0;
};

}  // namespace

void check_structure(const YAML::Node& root, const std::filesystem::path& file) {
  if (!root.IsDefined() || root.IsNull()) return;
  StructureCheck(file).visit(root);
}

}  // namespace kexp::core
