// Hashes and seeds: FNV-1a against its published test vectors, and derive_seed's
// SplitMix64 mixing against values computed by hand from the definition.
#include "util/seed.hpp"

#include <gtest/gtest.h>

namespace kexp::core {
namespace {

TEST(Fnv1a, MatchesThePublishedTestVectors) {
  EXPECT_EQ(fnv1a(""), 14695981039346656037ULL);  // the offset basis
  EXPECT_EQ(fnv1a(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a("a"), 0xaf63dc4c8601ec8cULL);  // the FNV-1a test vector
  EXPECT_EQ(fnv1a("foobar"), 0x85944171f73967e8ULL);
}

TEST(DeriveSeed, SeedsDeriveFromTheRootTheKeyAndTheIndex) {
  EXPECT_EQ(derive_seed(7, "cell:abc", 0), derive_seed(7, "cell:abc", 0));
  EXPECT_NE(derive_seed(7, "cell:abc", 0), derive_seed(7, "cell:abc", 1));
  EXPECT_NE(derive_seed(7, "cell:abc", 0), derive_seed(8, "cell:abc", 0));
  EXPECT_NE(derive_seed(7, "cell:abc", 0), derive_seed(7, "cell:abd", 0));
}

TEST(DeriveSeed, IsSplitMix64OfSplitMix64OfTheRootAndKeyPlusTheIndex) {
  // root ^ fnv1a("") = 0, and SplitMix64(0) = 0xe220a8397b1dcdaf, its well-known first
  // output; the index is added to that before the second round.
  const std::uint64_t root = 0xcbf29ce484222325ULL;
  EXPECT_EQ(derive_seed(root, "", 0), 0xa706dd2f4d197e6fULL);
  EXPECT_EQ(derive_seed(root, "", 1), 0x2a98f501af37e97fULL);
  EXPECT_EQ(derive_seed(7, "cell:abc", 0), 0xa7efbd3fc6dd89f2ULL);
  EXPECT_EQ(derive_seed(7, "cell:abc", 1), 0xd89ba203a3e65d14ULL);
}

}  // namespace
}  // namespace kexp::core
