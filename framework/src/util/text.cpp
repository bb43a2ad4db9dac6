// Text helpers: UTF-8 validity, the first control character, counts with their noun, the
// display width of UTF-8 text, word wrapping and aligned tables.
#include "util/text.hpp"

#include <algorithm>
#include <cstddef>

namespace kexp::core {

bool is_valid_utf8(std::string_view s) { return !first_invalid_utf8(s).has_value(); }

std::optional<std::size_t> first_invalid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t extra = 0;
    if (c < 0x80) {
      extra = 0;
    } else if ((c & 0xE0) == 0xC0 && c >= 0xC2) {
      extra = 1;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
    } else if ((c & 0xF8) == 0xF0 && c <= 0xF4) {
      extra = 3;
    } else {
      return i;
    }
    if (i + extra >= s.size()) return i;
    for (std::size_t k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return i;
    }
    i += extra + 1;
  }
  return std::nullopt;
}

std::optional<unsigned char> first_control_character(std::string_view text) {
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return c;
  }
  return std::nullopt;
}

std::string count_of(std::size_t count, std::string_view singular, std::string_view plural) {
  std::string out = std::to_string(count) + " ";
  if (count == 1) return out.append(singular);
  if (!plural.empty()) return out.append(plural);
  return out.append(singular).append("s");
}

std::size_t display_width(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0U) == 0x80U ? 0 : 1;
  return n;
}

std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
  std::vector<std::string> lines(1);
  std::size_t used = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\n') {  // a line break of the text's own
      lines.emplace_back();
      used = 0;
      ++i;
      continue;
    }
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t j = text.find_first_of(" \n", i);
    if (j == std::string_view::npos) j = text.size();
    const std::string_view word = text.substr(i, j - i);
    const std::size_t w = display_width(word);
    if (used > 0 && used + 1 + w > width) {
      lines.emplace_back();
      used = 0;
    }
    if (used > 0) {
      lines.back() += ' ';
      ++used;
    }
    lines.back() += word;
    used += w;
    i = j;
  }
  return lines;
}

std::string aligned_table(const std::vector<std::vector<std::string>>& rows, std::size_t width,
                          std::size_t indent) {
  std::size_t columns = 0;
  for (const auto& row : rows) columns = std::max(columns, row.size());
  std::vector<std::size_t> widths(columns, 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c + 1 < row.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  }
  std::size_t lead = indent;  // where the last column starts
  for (std::size_t c = 0; c + 1 < columns; ++c) lead += widths[c] + 2;
  constexpr std::size_t kNarrowest = 10;
  const std::size_t room = width > lead + kNarrowest ? width - lead : kNarrowest;
  std::string out;
  for (const auto& row : rows) {
    std::string line(indent, ' ');
    for (std::size_t c = 0; c + 1 < row.size(); ++c) {
      line += row[c];
      line.append(widths[c] - display_width(row[c]) + 2, ' ');
    }
    if (row.size() == columns && !row.empty()) {
      const std::vector<std::string> parts = wrap_words(row.back(), room);
      line += parts.front();
      for (std::size_t k = 1; k < parts.size(); ++k) {
        line += "\n" + std::string(lead, ' ') + parts[k];
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace kexp::core
