// Checks on text that kexp turns into names, paths and JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kexp::core {

/// Whether `text` is well-formed UTF-8 (no overlong two-byte forms, no bytes past U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// The first control character in `text` (below 0x20, or 0x7f; a NUL byte among them), or
/// nothing when there is none.
std::optional<unsigned char> first_control_character(std::string_view text);

/// "1 run", "3 runs", "0 runs": a count with its noun, plural unless the count is one;
/// `plural` for a noun that does not just add an s.
std::string count_of(std::size_t count, std::string_view singular, std::string_view plural = {});

}  // namespace kexp::core
