// A CellResult as bytes and back, for a group of cells run in a child process
// (exec/isolated_group) to hand each finished cell to the runner: every field, doubles bit
// for bit, in the layout of the process that wrote it (both ends are the same program).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "exec/cell_result.hpp"

namespace kexp::core {

/// The bytes of `result`.
[[nodiscard]] std::string encode_cell_result(const CellResult& result);

/// The result encoded in `bytes`. Throws kexp::Error when they end early or run over.
[[nodiscard]] CellResult decode_cell_result(std::string_view bytes);

/// The members of a CellResult that go on the wire, for the test that every member does.
[[nodiscard]] std::size_t cell_result_wire_members();

}  // namespace kexp::core
