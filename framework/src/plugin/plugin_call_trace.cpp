// The board is one shared anonymous mapping; the notes are a stack of this thread's, and
// every push or pop rewrites the board's text and bumps its count of changes.
#include "plugin/plugin_call_trace.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "kexp/error.hpp"

namespace kexp::core {

struct PluginCallBoard::Page {
  /// Twice the count of changes, plus 1 while the innermost note is a plugin's own code:
  /// one word, so that the parent never reads a count with another change's flag.
  std::atomic<std::uint64_t> state{0};
  char what[4000] = {};
};

namespace {

struct Note {
  std::string what;
  bool plugin_code;
};

// The board this thread's notes go to: only the thread that watches a board (the child's
// main thread, which makes the plan) publishes.
thread_local PluginCallBoard::Page* watched = nullptr;
thread_local std::vector<Note> notes;

void publish() noexcept {
  if (watched == nullptr) return;
  // The innermost first: "creating …, for solvers[0] (…)", written in place, cut at the
  // page's end.
  std::size_t size = 0;
  const std::size_t capacity = sizeof(watched->what) - 1;
  for (auto n = notes.rbegin(); n != notes.rend(); ++n) {
    if (size > 0 && size + 2 <= capacity) {
      std::memcpy(watched->what + size, ", ", 2);
      size += 2;
    }
    const std::size_t take = std::min(n->what.size(), capacity - size);
    std::memcpy(watched->what + size, n->what.data(), take);
    size += take;
  }
  watched->what[size] = '\0';
  const std::uint64_t count = (watched->state.load() >> 1) + 1;
  watched->state.store((count << 1) | (!notes.empty() && notes.back().plugin_code ? 1 : 0));
}

}  // namespace

PluginCallBoard::PluginCallBoard() {
  void* p =
      ::mmap(nullptr, sizeof(Page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    throw Error(std::string("cannot map memory to watch plugin calls: ") + std::strerror(errno));
  }
  page_ = new (p) Page();
}

PluginCallBoard::~PluginCallBoard() {
  page_->~Page();
  ::munmap(page_, sizeof(Page));
}

void PluginCallBoard::watch() {
  watched = page_;
  publish();
}

std::string PluginCallBoard::what() const {
  const std::size_t size = ::strnlen(page_->what, sizeof(page_->what));
  return std::string(page_->what, size);
}

PluginCallBoard::State PluginCallBoard::state() const {
  const std::uint64_t s = page_->state.load();
  return {s >> 1, (s & 1) != 0};
}

PluginCallNote::PluginCallNote(std::string what, bool plugin_code) {
  if (watched == nullptr) return;
  notes.push_back({std::move(what), plugin_code});
  pushed_ = true;
  publish();
}

PluginCallNote::~PluginCallNote() {
  if (!pushed_ || notes.empty()) return;
  notes.pop_back();
  publish();
}

}  // namespace kexp::core
