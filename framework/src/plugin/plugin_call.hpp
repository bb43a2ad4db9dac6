// Calling into a plugin: whatever the plugin's code throws (a kexp::Error, any
// std::exception, or something that is not an exception class at all) comes back as a
// kexp::Error whose message names the plugin and what it was doing, e.g.
// "kernel 'gaussian' failed while computing the Gram matrix: <what>".
#pragma once

#include <fmt/format.h>

#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "kexp/error.hpp"

namespace kexp::core {

/// The message of a std::bad_alloc, which says nothing of its own.
inline constexpr std::string_view kOutOfMemory = "out of memory (std::bad_alloc)";

/// The message of the exception being handled: what() for a std::exception, kOutOfMemory
/// for std::bad_alloc, "unknown exception" for anything else. Call it only inside a catch
/// block.
inline std::string current_exception_message() {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return std::string(kOutOfMemory);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

/// Calls f() and returns its result. An exception from it is rethrown as kexp::Error
/// "<kind> '<name>' failed while <doing>: <message>"; `kind` is "kernel" or "solver".
template <class F>
decltype(auto) call_plugin(std::string_view kind, std::string_view name, std::string_view doing,
                           F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (...) {
    throw Error(
        fmt::format("{} '{}' failed while {}: {}", kind, name, doing, current_exception_message()));
  }
}

}  // namespace kexp::core
