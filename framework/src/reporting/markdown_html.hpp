// The markdown that summary.md is written in, as HTML, for report.html. Only the subset
// the summary uses is understood:
//
//   # title, ## heading        <h1>, <h2>
//   - item                     <ul><li>
//   | a | b |  then  |---|---| <table> (a cell's "\|" is a literal pipe), at most
//                              max_table_rows of its rows
//   **bold**, `code`           <strong>, <code>
//   other lines                paragraphs, split by blank lines
//
// Everything else is text, escaped: a name with <, > or & reads as written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kexp::core {

/// Text escaped for HTML content and attribute values: & < > " '.
std::string html_escape(std::string_view text);

struct MarkdownHtmlOptions {
  /// Each table in a <details> element, closed, its <summary> the heading above it and
  /// its count of rows.
  bool collapse_tables = false;
  /// The most body rows a table shows (0: all). A longer table shows its first rows and,
  /// under them, `more_rows` (HTML, with {} for the count left out): where the rest is.
  std::size_t max_table_rows = 0;
  std::string more_rows;
};

/// The HTML of `markdown` (the subset above), as a sequence of block elements.
std::string markdown_to_html(std::string_view markdown, const MarkdownHtmlOptions& options = {});

}  // namespace kexp::core
