// Text for the terminal: widths counted in characters, not bytes (σ, ‖, −), words wrapped
// at spaces, and tables whose last column wraps under itself.
#include "util/text.hpp"

#include <gtest/gtest.h>

namespace kexp::core {
namespace {

TEST(DisplayWidth, CountsCharactersNotBytes) {
  EXPECT_EQ(display_width(""), 0U);
  EXPECT_EQ(display_width("sigma"), 5U);
  EXPECT_EQ(display_width("σ"), 1U);                // 2 bytes
  EXPECT_EQ(display_width("exp(−‖x − z‖²)"), 14U);  // −, ‖ and ² are 2 or 3 bytes each
}

TEST(FirstInvalidUtf8, IsTheOffsetOfTheFirstByteThatBeginsNoCharacter) {
  EXPECT_EQ(first_invalid_utf8(""), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("σ‖𝔼 ok"), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("caf\xe9"), 3U);     // Latin-1 é: a lead byte, cut short
  EXPECT_EQ(first_invalid_utf8("ab\xff"), 2U);      // never a byte of UTF-8
  EXPECT_EQ(first_invalid_utf8("σ\xc0\x80"), 2U);   // an overlong NUL
  EXPECT_EQ(first_invalid_utf8("a\xe2\x80z"), 1U);  // a continuation missing
  EXPECT_EQ(first_invalid_utf8("\x80"), 0U);        // a lone continuation byte
  EXPECT_FALSE(is_valid_utf8("ab\xff"));
  EXPECT_TRUE(is_valid_utf8("σ"));
}

TEST(WrapWords, BreaksAtSpacesWithinTheWidth) {
  EXPECT_EQ(wrap_words("a bb ccc dddd", 6), (std::vector<std::string>{"a bb", "ccc", "dddd"}));
  EXPECT_EQ(wrap_words("averyveryverylongword x", 5),
            (std::vector<std::string>{"averyveryverylongword", "x"}));
  EXPECT_EQ(wrap_words("", 10), (std::vector<std::string>{""}));
  EXPECT_EQ(wrap_words("one\n - two three", 9),
            (std::vector<std::string>{"one", "- two", "three"}));
  EXPECT_EQ(wrap_words("σσσ σσσ", 7), (std::vector<std::string>{"σσσ σσσ"}));  // 7 characters
}

TEST(AlignedTable, ColumnsAsWideAsTheirWidestCellAndTheLastOneWrapped) {
  const std::string table = aligned_table({{"kind", "name", "doc"},
                                           {"solver", "kernel_ridge_classifier", "short"},
                                           {"kernel", "σ", "one two three four five six"}},
                                          48, 2);
  EXPECT_EQ(table,
            "  kind    name                     doc\n"
            "  solver  kernel_ridge_classifier  short\n"
            "  kernel  σ                        one two three\n"
            "                                   four five six\n");
  for (std::size_t start = 0, end; (end = table.find('\n', start)) != std::string::npos;
       start = end + 1) {
    EXPECT_LE(display_width(std::string_view(table).substr(start, end - start)), 48U);
  }
}

TEST(CountOf, PluralUnlessOne) {
  EXPECT_EQ(count_of(1, "run"), "1 run");
  EXPECT_EQ(count_of(0, "run"), "0 runs");
  EXPECT_EQ(count_of(2, "library", "libraries"), "2 libraries");
}

}  // namespace
}  // namespace kexp::core
