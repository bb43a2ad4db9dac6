// Hashes and seeds: stable across runs, platforms and compilers, so that a cell's id and
// its random numbers depend only on what the experiment file says.
#pragma once

#include <cstdint>
#include <string>

namespace kexp::core {

/// 64-bit FNV-1a of text.
std::uint64_t fnv1a(const std::string& text);

/// A seed derived from a root seed and a text key and an index (SplitMix64 mixing).
std::uint64_t derive_seed(std::uint64_t root, const std::string& key, std::uint64_t index);

}  // namespace kexp::core
