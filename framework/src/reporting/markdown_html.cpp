// The summary's markdown subset as HTML: headings, lists, tables and paragraphs, with
// bold and code inside them, every other character escaped.
#include "reporting/markdown_html.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <vector>

namespace kexp::core {

namespace {

/// The lines of `text`, without their line ends.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// **bold** and `code` of one line of text; an opening mark with no closing one is text.
std::string inline_html(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '`') {
      const std::size_t close = text.find('`', i + 1);
      if (close != std::string_view::npos) {
        out += "<code>" + html_escape(text.substr(i + 1, close - i - 1)) + "</code>";
        i = close + 1;
        continue;
      }
    } else if (starts_with(text.substr(i), "**")) {
      const std::size_t close = text.find("**", i + 2);
      if (close != std::string_view::npos && close > i + 2) {
        out += "<strong>" + inline_html(text.substr(i + 2, close - i - 2)) + "</strong>";
        i = close + 2;
        continue;
      }
    }
    out += html_escape(text.substr(i, 1));
    ++i;
  }
  return out;
}

/// The cells of a table row "| a | b\|c |": split at the pipes that are not escaped.
std::vector<std::string> table_cells(std::string_view row) {
  std::vector<std::string> cells;
  std::string cell;
  bool open = false;  // the leading pipe opens the first cell
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      if (open) cells.push_back(cell);
      cell.clear();
      open = true;
    } else {
      cell += row[i];
    }
  }
  for (std::string& c : cells) {
    const std::size_t first = c.find_first_not_of(' ');
    const std::size_t last = c.find_last_not_of(' ');
    c = first == std::string::npos ? std::string() : c.substr(first, last - first + 1);
  }
  return cells;
}

bool is_heading(std::string_view line) {
  return starts_with(line, "# ") || starts_with(line, "## ");
}

bool is_table_line(std::string_view line) { return starts_with(line, "|"); }

/// The |---|---| line under a table's header.
bool is_separator(std::string_view line) {
  return is_table_line(line) && line.find_first_not_of("|-: ") == std::string_view::npos;
}

/// A table's lines as HTML, at most `max_rows` of its body rows (0: all).
std::string table_html(const std::vector<std::string_view>& lines, std::size_t max_rows) {
  std::string html = "<table>\n";
  bool header = true;
  std::size_t rows = 0;
  for (const std::string_view line : lines) {
    if (is_separator(line)) continue;
    if (!header && max_rows > 0 && ++rows > max_rows) break;
    const char* tag = header ? "th" : "td";
    html += "<tr>";
    for (const std::string& cell : table_cells(line)) {
      html += fmt::format("<{0}>{1}</{0}>", tag, inline_html(cell));
    }
    html += "</tr>\n";
    header = false;
  }
  return html + "</table>\n";
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string markdown_to_html(std::string_view markdown, const MarkdownHtmlOptions& options) {
  const std::vector<std::string_view> lines = split_lines(markdown);
  std::string html;
  std::string heading;  // the last heading's text, for a collapsed table's summary
  for (std::size_t i = 0; i < lines.size();) {
    const std::string_view line = lines[i];
    if (line.find_first_not_of(' ') == std::string_view::npos) {
      ++i;
    } else if (is_heading(line)) {
      const std::size_t level = starts_with(line, "# ") ? 1 : 2;
      const std::string_view text = line.substr(level + 1);
      heading = std::string(text);
      html += fmt::format("<h{0}>{1}</h{0}>\n", level, inline_html(text));
      ++i;
    } else if (starts_with(line, "- ")) {
      html += "<ul>\n";
      for (; i < lines.size() && starts_with(lines[i], "- "); ++i) {
        html += "<li>" + inline_html(lines[i].substr(2)) + "</li>\n";
      }
      html += "</ul>\n";
    } else if (is_table_line(line)) {
      std::vector<std::string_view> rows;
      for (; i < lines.size() && is_table_line(lines[i]); ++i) rows.push_back(lines[i]);
      const std::size_t body = rows.size() - (rows.size() > 1 && is_separator(rows[1]) ? 2 : 1);
      std::string table = table_html(rows, options.max_table_rows);
      const bool cut = options.max_table_rows > 0 && body > options.max_table_rows;
      if (cut) {
        table += "<p class=\"more\">" +
                 fmt::format(fmt::runtime(options.more_rows), body - options.max_table_rows) +
                 "</p>\n";
      }
      if (!options.collapse_tables) {
        html += table;
        continue;
      }
      html += fmt::format(
          "<details><summary>{}{} row{}{}</summary>\n{}</details>\n",
          heading.empty() ? "" : inline_html(heading) + ": ", body, body == 1 ? "" : "s",
          cut ? fmt::format(", the first {} shown", options.max_table_rows) : "", table);
    } else {
      // Its first line whatever it starts with, then up to a blank line or another block.
      std::string paragraph = inline_html(line);
      for (++i; i < lines.size() && lines[i].find_first_not_of(' ') != std::string_view::npos &&
                !is_heading(lines[i]) && !starts_with(lines[i], "- ") && !is_table_line(lines[i]);
           ++i) {
        paragraph += "\n" + inline_html(lines[i]);
      }
      html += "<p>" + paragraph + "</p>\n";
    }
  }
  return html;
}

}  // namespace kexp::core
