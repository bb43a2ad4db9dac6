// What kexp is doing with a plugin right now, kept where a process watching from outside
// can read it: the plan's plugin calls (constructors, a kernel's feature map, a solver's
// estimates) are first tried in a child process (run/rehearsal.hpp), and when the child
// crashes, exits or hangs, its parent names the call it was in from this board, which
// lies in memory shared by both.
//
// A PluginCallNote says, for as long as it lives, what is being done; notes nest (an entry
// of the experiment, then an object of its plugin), and the board holds them joined. Where
// no board is watched (kexp's own process), a note costs a few pointer moves.
#pragma once

#include <cstdint>
#include <string>

namespace kexp::core {

/// The board: a page of memory shared with the process that forked this one.
class PluginCallBoard {
 public:
  /// Maps a new board; throws kexp::Error when the system refuses.
  PluginCallBoard();
  ~PluginCallBoard();
  PluginCallBoard(const PluginCallBoard&) = delete;
  PluginCallBoard& operator=(const PluginCallBoard&) = delete;

  /// Makes this process's notes go to this board (in the child, after the fork).
  void watch();

  /// Read by the parent: the notes open now, joined ("" when none).
  [[nodiscard]] std::string what() const;
  /// How many times the notes changed, and whether the innermost is a plugin's own code
  /// (held to a time limit), read together.
  struct State {
    std::uint64_t changes = 0;
    bool in_plugin_code = false;
  };
  [[nodiscard]] State state() const;

  struct Page;

 private:
  Page* page_;
};

/// Says what is done with a plugin while it lives. `plugin_code`: the plugin's own code
/// runs (a constructor, a query); otherwise kexp's work that involves the plugin (an entry
/// of the experiment being planned), not held to a time limit.
class PluginCallNote {
 public:
  explicit PluginCallNote(std::string what, bool plugin_code = true);
  ~PluginCallNote();
  PluginCallNote(const PluginCallNote&) = delete;
  PluginCallNote& operator=(const PluginCallNote&) = delete;

 private:
  bool pushed_ = false;
};

}  // namespace kexp::core
