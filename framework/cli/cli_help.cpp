// What the command line says when it is used wrongly: a numeric option that is not a number
// in its range, a command or an option that does not exist (with the nearest one), and
// `kexp help [COMMAND]`.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "cli/commands.hpp"
#include "util/names.hpp"

namespace kexp::cli {

namespace {

/// The number `text` holds when all of it is one, as strtod or strtoll reads it.
bool whole(const std::string& text, long long& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && end == text.c_str() + text.size();
}

bool real(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

/// A suggestion ("; did you mean 'run'?") as the end of a sentence: "; did you mean 'run'?"
/// stays, nothing becomes ".".
std::string sentence_end(const std::string& suggestion) {
  return suggestion.empty() ? "." : suggestion;
}

}  // namespace

CLI::Validator count_option(long long lowest, long long highest, const std::string& meaning) {
  const std::string range = highest == std::numeric_limits<long long>::max()
                                ? fmt::format("≥ {}", lowest)
                                : fmt::format("from {} to {}", lowest, highest);
  return CLI::Validator(
      [lowest, highest, range, meaning](std::string& text) -> std::string {
        long long v = 0;
        if (!whole(text, v)) {
          return fmt::format("'{}' is not a whole number; give {}, a whole number {}", text,
                             meaning, range);
        }
        if (v < lowest || v > highest) {
          return fmt::format("{} is out of range; give {}, a whole number {}", text, meaning,
                             range);
        }
        return {};
      },
      "INTEGER " + range);
}

CLI::Validator real_option(double lowest, const std::string& meaning) {
  return CLI::Validator(
      [lowest, meaning](std::string& text) -> std::string {
        double v = 0;
        if (!real(text, v)) {
          return fmt::format("'{}' is not a number; give {}, a number ≥ {:g}", text, meaning,
                             lowest);
        }
        if (v < lowest) {
          return fmt::format("{} is out of range; give {}, a number ≥ {:g}", text, meaning, lowest);
        }
        return {};
      },
      fmt::format("NUMBER ≥ {:g}", lowest));
}

std::optional<std::string> unknown_command(const CLI::App& app, int argc, char** argv) {
  // The first word that is not an option of the program itself names the command.
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.rfind('-', 0) == 0) return std::nullopt;  // --help, --version, or CLI11's own error
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), word) != names.end()) return std::nullopt;
    return fmt::format(
        "'{}' is not a kexp command{} The commands: {} (`kexp help COMMAND` "
        "for one's options)",
        word, sentence_end(core::did_you_mean(word, names)), fmt::join(names, ", "));
  }
  return std::nullopt;
}

std::string unknown_options(const CLI::App& app, const std::vector<std::string>& extras) {
  // The command the options were given to: the one that was parsed, else the program.
  const CLI::App* command = &app;
  for (const CLI::App* sub : app.get_subcommands()) command = sub;
  std::vector<std::string> names;
  for (const CLI::Option* o : command->get_options()) {
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  }
  std::string out;
  for (const std::string& e : extras) {
    if (e.rfind("--", 0) != 0) continue;
    const std::string name = e.substr(0, e.find('='));
    out += fmt::format("{}{} is not an option of `kexp{}`{}", out.empty() ? "" : "; ", name,
                       command == &app ? "" : " " + command->get_name(),
                       core::did_you_mean(name, names));
  }
  if (out.empty()) {
    out = fmt::format("unexpected argument{} {}", extras.size() == 1 ? "" : "s",
                      fmt::join(extras, " "));
  }
  return out + fmt::format(" (`kexp help{}` lists them)",
                           command == &app ? "" : " " + command->get_name());
}

void add_help_command(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("help", "Show the options of a command, or list the commands");
  cmd->add_option("command", *command, "A command: run, report, merge, …");
  cmd->callback([&app, command, &exit_code] {
    if (command->empty()) {
      // The program's own help: App::help() would give the help of the command selected,
      // which is this one.
      std::cout << app.get_formatter()->make_help(&app, "kexp", CLI::AppFormatMode::Normal);
      exit_code = 0;
      return;
    }
    for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->get_name() != *command) continue;
      std::cout << sub->help();
      exit_code = 0;
      return;
    }
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      names.push_back(sub->get_name());
    throw ConfigError(fmt::format("kexp help {}: no such command{} The commands: {}", *command,
                                  sentence_end(core::did_you_mean(*command, names)),
                                  fmt::join(names, ", ")));
  });
}

}  // namespace kexp::cli
