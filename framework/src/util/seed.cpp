// Seeds and hashes that are the same on every platform: SplitMix64, FNV-1a, and seeds
// derived from a root seed, a key and an index.
#include "util/seed.hpp"

namespace kexp::core {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;  // the FNV-1a 64-bit offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;  // the FNV 64-bit prime
  }
  return h;
}

std::uint64_t derive_seed(std::uint64_t root, const std::string& key, std::uint64_t index) {
  return splitmix64(splitmix64(root ^ fnv1a(key)) + index);
}

}  // namespace kexp::core
