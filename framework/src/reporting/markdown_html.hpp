// The markdown that summary.md is written in, as HTML, for report.html. Only the subset
// the summary uses is understood:
//
//   # title, ## heading        <h1>, <h2>
//   - item                     <ul><li>
//   | a | b |  then  |---|---| <table> (a cell's "\|" is a literal pipe)
//   **bold**, `code`           <strong>, <code>
//   other lines                paragraphs, split by blank lines
//
// Everything else is text, escaped: a name with <, > or & reads as written.
#pragma once

#include <string>
#include <string_view>

namespace kexp::core {

/// Text escaped for HTML content and attribute values: & < > " '.
std::string html_escape(std::string_view text);

struct MarkdownHtmlOptions {
  /// Each table in a <details> element, closed, its <summary> the heading above it and
  /// its count of rows.
  bool collapse_tables = false;
};

/// The HTML of `markdown` (the subset above), as a sequence of block elements.
std::string markdown_to_html(std::string_view markdown, const MarkdownHtmlOptions& options = {});

}  // namespace kexp::core
