// Checks on text that kexp turns into names, paths and JSON.
#pragma once

#include <optional>
#include <string_view>

namespace kexp::core {

/// Whether `text` is well-formed UTF-8 (no overlong two-byte forms, no bytes past U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// The first control character in `text` (below 0x20, or 0x7f; a NUL byte among them), or
/// nothing when there is none.
std::optional<unsigned char> first_control_character(std::string_view text);

}  // namespace kexp::core
