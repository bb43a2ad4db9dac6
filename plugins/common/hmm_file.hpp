// The text file of a hidden Markov model (common/hmm_model.hpp): π, A and B, so that a
// model can be fixed and a result checked by hand.
#pragma once

#include <filesystem>

#include "common/hmm_model.hpp"

namespace kexp_kernels {

/// Reads π, A and B from a text file of this form:
///
///   # a two-state model over three symbols
///   pi 0.6 0.4
///   A  0.9 0.1
///   A  0.2 0.8
///   B  0.5 0.3 0.2
///   B  0.1 0.1 0.8
///
/// One `pi` line with the S initial probabilities; S lines `A`, row i of A on the i-th
/// of them, S numbers each; S lines `B`, row i of B on the i-th, M numbers each. The lines
/// may come in any order (the rows of A in their order, and those of B in theirs). A `#`
/// starts a comment that runs to the end of the line; blank lines are ignored. Every
/// number is a probability in [0, 1], and π and each row sum to 1 within 1e-6; they are
/// then divided by their sum, so that they sum to 1 to rounding.
///
/// The file must be a regular file of at most 64 MiB, read as the data files are
/// (common/text_file.hpp, read_text_file, whose messages name the parameter `file`).
/// Throws kexp::DataError at the file and line of the first thing that is wrong (an
/// unknown keyword, a word that is not a number, a probability out of [0, 1], a row not
/// summing to 1, a row of the wrong length, a second `pi` line, a block missing or with
/// the wrong number of rows), saying what to write instead. A missing block is reported
/// at the last line of the file.
Hmm read_hmm(const std::filesystem::path& file);

}  // namespace kexp_kernels
