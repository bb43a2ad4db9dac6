// report.html: the summary's text converted, the plots as data: URIs, the manifest's
// essentials and the commands that regenerate the folder, in one page with its style
// inline.
#include "reporting/report_html.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <utility>

#include "kexp/error.hpp"
#include "reporting/markdown_html.hpp"
#include "reporting/setup.hpp"
#include "util/files.hpp"

namespace kexp::core {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* kStyle = R"(
body { font-family: sans-serif; line-height: 1.45; margin: 0; background: #fff; color: #222; }
main { max-width: 70rem; margin: 0 auto; padding: 1rem 2rem 3rem; }
h1 { border-bottom: 2px solid #ccc; padding-bottom: .3rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; }
code, pre { font-family: monospace; background: #f4f4f4; }
pre { padding: .6rem; overflow-x: auto; }
figure { margin: 1.5rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .92rem; color: #444; }
table { border-collapse: collapse; font-size: .88rem; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .2rem .45rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
details { margin: .5rem 0 1rem; }
summary { cursor: pointer; font-weight: bold; }
)";

/// A string as it is, a number or boolean as JSON writes it; null as empty.
std::string text_of(const Json& j) {
  if (j.is_null()) return {};
  return j.is_string() ? j.get<std::string>() : j.dump();
}

/// The value at `path` in `j` as text; empty when it is not there.
std::string at(const Json& j, std::initializer_list<const char*> path) {
  const Json* node = &j;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return {};
    node = &(*node)[key];
  }
  return text_of(*node);
}

void row(std::string& html, const std::string& label, const std::string& value) {
  if (value.empty()) return;
  html += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", html_escape(label), html_escape(value));
}

/// A command line as the page shows it: each absolute path made relative to the folder it
/// was run in, or cut to its file name (setup.hpp), so that no path of the machine appears.
std::string command_text(const std::string& command, const std::string& working_directory) {
  std::string out;
  std::size_t start = 0;
  while (start < command.size()) {
    std::size_t end = command.find(' ', start);
    if (end == std::string::npos) end = command.size();
    std::string word = command.substr(start, end - start);
    // --out=/abs/path and the like: the path after the '='
    const std::size_t eq = word.rfind('=', word.find('/'));
    const std::size_t path = word.find('/') == 0 ? 0 : (eq != std::string::npos ? eq + 1 : 0);
    if (word.size() > path && word[path] == '/') {
      word = word.substr(0, path) + shown_path(word.substr(path), working_directory);
    }
    out += (out.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out;
}

/// The facts of one run's manifest that say what ran where.
std::string manifest_rows(const Json& m) {
  std::string html;
  std::string commit = at(m, {"git_commit"});
  if (!commit.empty() && at(m, {"git_dirty"}) == "true") commit += " (with uncommitted changes)";
  row(html, "kexp version", at(m, {"kexp_version"}));
  row(html, "git commit", commit);
  row(html, "build", fmt::format("{} {}", at(m, {"compiler"}), at(m, {"build_type"})));
  row(html, "host", at(m, {"environment", "host"}));
  const std::string cpus = at(m, {"environment", "cpu_count"});
  row(html, "CPU", at(m, {"environment", "cpu"}) + (cpus.empty() ? "" : ", " + cpus + " cores"));
  row(html, "BLAS", at(m, {"environment", "blas", "config"}));
  const std::string by = at(m, {"environment", "blas", "core_chosen_by"});
  row(html, "BLAS kernels",
      at(m, {"environment", "blas", "core"}) + (by.empty() ? "" : ", chosen by " + by));
  const std::string threading = at(m, {"environment", "blas", "threading"});
  row(html, "BLAS threads",
      at(m, {"environment", "blas", "threads"}) + (threading.empty() ? "" : ", " + threading));
  row(html, "Gram and feature threads", at(m, {"options", "threads"}));
  row(html, "started", at(m, {"started"}));
  row(html, "finished", at(m, {"finished"}));
  row(html, "root seed", at(m, {"seeds", "root"}));
  row(html, "repeats", at(m, {"seeds", "repeats"}));
  if (m.contains("seeds") && m["seeds"].contains("datasets")) {
    for (const Json& d : m["seeds"]["datasets"]) {
      std::string seeds;
      if (d.contains("seeds")) {
        for (const Json& s : d["seeds"]) seeds += (seeds.empty() ? "" : ", ") + text_of(s);
      }
      row(html, "seeds of " + at(d, {"variant"}), seeds);
    }
  }
  if (m.contains("inputs") && m["inputs"].is_array()) {
    for (const Json& f : m["inputs"]) {
      row(html, fmt::format("{}: {}", at(f, {"key"}), at(f, {"written"})),
          "sha256 " + at(f, {"sha256"}));
    }
  }
  row(html, "command", command_text(at(m, {"command_line"}), at(m, {"working_directory"})));
  return html;
}

/// The manifest's essentials; a merged folder's are those of the folders it joins.
std::string manifest_html(const Json& m) {
  std::string html = "<h2>What ran, where</h2>\n";
  if (!m.is_object()) return html + "<p>This folder has no readable manifest.json.</p>\n";
  if (m.contains("merged_from") && m["merged_from"].is_array()) {
    html += fmt::format("<p>Merged by <code>kexp merge</code> on {} from {} folders.</p>\n",
                        html_escape(at(m, {"merged"})), m["merged_from"].size());
    for (const Json& input : m["merged_from"]) {
      html += fmt::format("<h3>{} ({} runs)</h3>\n<table>\n{}</table>\n",
                          html_escape(shown_path(at(input, {"folder"}), {})),
                          html_escape(at(input, {"runs"})),
                          manifest_rows(input.value("manifest", Json())));
    }
    return html;
  }
  return html + "<table>\n" + manifest_rows(m) + "</table>\n";
}

std::string figures_html(const std::vector<HtmlFigure>& figures, const std::string& heading) {
  if (figures.empty()) return {};
  std::string html = "<h2>" + heading + "</h2>\n";
  for (const HtmlFigure& f : figures) {
    const std::string caption = html_escape(f.caption.empty() ? f.file : f.caption);
    if (f.svg.empty()) {
      html += fmt::format("<p>{}: {}.</p>\n", html_escape(f.file),
                          f.caption.empty() ? "could not be read" : caption);
      continue;
    }
    // The caption is drawn under the plot in the SVG itself: the page names the file only
    // (and gives the caption to readers that do not see the image).
    html += fmt::format(
        "<figure>\n<img alt=\"{}\" src=\"data:image/svg+xml;base64,{}\">\n"
        "<figcaption><small>{}</small></figcaption>\n</figure>\n",
        caption, base64(f.svg), html_escape(f.file));
  }
  return html;
}

std::string regenerate_html(const std::string& folder) {
  const std::string again = folder + "-again";
  return fmt::format(
      "<h2>Regenerate it</h2>\n"
      "<p>The folder's <code>config.yaml</code> is the experiment with every default filled "
      "in; run it again, rebuild this page, and compare the two folders run by run:</p>\n"
      "<pre>kexp run {0}/config.yaml --out {1}\nkexp report --html {1}\nkexp diff {0} {1}"
      "</pre>\n"
      "<p><code>kexp report --html {0}</code> rebuilds this page, summary.md and plots/ "
      "from the folder's results.csv alone.</p>\n",
      html_escape(folder), html_escape(again));
}

/// The title a gnuplot script sets ("set title '…'", a quote doubled), or empty.
std::string script_title(const std::string& script) {
  const std::string prefix = "\nset title '";
  const std::size_t start = script.find(prefix);
  if (start == std::string::npos) return {};
  std::string title;
  for (std::size_t i = start + prefix.size(); i < script.size() && script[i] != '\n'; ++i) {
    if (script[i] == '\'' && (i + 1 >= script.size() || script[i + 1] != '\'')) break;
    if (script[i] == '\'') ++i;  // '' is one quote
    title += script[i];
  }
  return title;
}

/// The heat maps of K that kernels/ holds (reporting/kernel_matrix.hpp), by name, at most
/// kHtmlKernelFigures of them read.
std::vector<HtmlFigure> kernel_heat_maps(const ResultFolder& folder) {
  std::vector<fs::path> svgs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder.kernels_dir(), ec)) {
    if (entry.path().extension() == ".svg") svgs.push_back(entry.path());
  }
  std::sort(svgs.begin(), svgs.end());
  std::vector<HtmlFigure> out;
  for (const fs::path& svg : svgs) {
    const std::string file = "kernels/" + svg.filename().string();
    if (out.size() >= kHtmlKernelFigures) {
      out.push_back({file, {}, "left out of this page: open the file"});
      continue;
    }
    fs::path script = svg;
    out.push_back(
        {file, read_text_file(svg), script_title(read_text_file(script.replace_extension(".gp")))});
  }
  return out;
}

}  // namespace

std::string base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(bytes.data()),
                                      static_cast<int>(bytes.size()));
  if (written < 0) throw Error("base64 encoding failed");
  out.resize(static_cast<std::size_t>(written));
  return out;
}

std::string report_html(const HtmlReportInputs& in) {
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{} — kexp report</title>\n<link rel=\"icon\" href=\"data:,\">\n"
      "<style>{}</style>\n</head>\n<body>\n<main>\n",
      html_escape(in.experiment), kStyle);
  html += markdown_to_html(in.summary.title);
  html += markdown_to_html(in.summary.setup);
  html += markdown_to_html(in.summary.head);
  html += figures_html(in.figures, "Plots");
  html += figures_html(in.kernel_figures, "Kernel matrices");
  if (!in.summary.tables.empty()) {
    MarkdownHtmlOptions options;
    options.collapse_tables = true;
    options.max_table_rows = kHtmlTableRows;
    options.more_rows =
        "… and {} more rows, in <a href=\"summary.md\">summary.md</a> beside this page; every "
        "run in <a href=\"results.csv\">results.csv</a>.";
    html += markdown_to_html(in.summary.tables, options);
  }
  html += manifest_html(in.manifest);
  html += regenerate_html(in.folder);
  return html + "</main>\n</body>\n</html>\n";
}

void write_html_report(const ResultFolder& folder, const std::string& experiment,
                       const SummaryText& summary, const PlotResult& plots,
                       const StoredManifest& manifest) {
  HtmlReportInputs in;
  in.experiment = experiment;
  std::error_code ec;
  in.folder = shown_path(folder.dir().lexically_normal().string(),
                         std::filesystem::current_path(ec).string());
  while (in.folder.size() > 1 && in.folder.back() == '/') in.folder.pop_back();
  in.summary = summary;
  in.manifest = manifest.document;
  for (std::size_t i = 0; i < plots.files.size(); ++i) {
    in.figures.push_back({plots.files[i], read_text_file(folder.dir() / plots.files[i]),
                          i < plots.captions.size() ? plots.captions[i] : std::string()});
  }
  in.kernel_figures = kernel_heat_maps(folder);
  write_file_atomically(folder.html_file(), report_html(in));
}

}  // namespace kexp::core
