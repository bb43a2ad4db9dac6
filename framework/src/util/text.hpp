// Checks on text that kexp turns into names, paths and JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kexp::core {

/// Whether `text` is well-formed UTF-8 (no overlong two-byte forms, no bytes past U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// The offset of the first byte of `text` that does not begin well-formed UTF-8, or nothing
/// when all of it is (is_valid_utf8).
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

/// The first control character in `text` (below 0x20, or 0x7f; a NUL byte among them), or
/// nothing when there is none.
std::optional<unsigned char> first_control_character(std::string_view text);

/// The width of `text` on a terminal: its UTF-8 code points (σ, ‖ and − count one each).
std::size_t display_width(std::string_view text);

/// `text` broken at spaces into lines of at most `width` display columns (a word longer
/// than that gets a line of its own), and at its own line breaks; never empty.
std::vector<std::string> wrap_words(std::string_view text, std::size_t width);

/// Rows of cells as aligned columns, each as wide as its widest cell, two spaces apart,
/// with `indent` spaces before every line; the last column is wrapped so that no line is
/// wider than `width`, its continuation lines starting under it. Ends with a newline.
std::string aligned_table(const std::vector<std::vector<std::string>>& rows, std::size_t width,
                          std::size_t indent = 0);

/// "1 run", "3 runs", "0 runs": a count with its noun, plural unless the count is one;
/// `plural` for a noun that does not just add an s.
std::string count_of(std::size_t count, std::string_view singular, std::string_view plural = {});

}  // namespace kexp::core
