// The formula engine's inner loop, compiled once per instruction set
// (formula_engine_avx512.cpp, _avx2.cpp, _sse2.cpp, _generic.cpp, each including
// formula_engine_isa.inl) and chosen at run time by formula_engine.cpp.
//
// A translation unit of one instruction set includes nothing that defines inline functions
// of external linkage kexp's other code also uses (no Armadillo, no fmt, no standard
// containers): the linker could otherwise keep its AVX-512 copy of such a function for a
// CPU without AVX-512. What it needs is in formula_program.hpp (plain data) and
// vector_math.hpp (always inlined).
#pragma once

#include <cstddef>

#include "kexp/formula_program.hpp"

namespace kexp::detail::formula_engine {

/// One block of K, column-major: on entry s = xᵢᵀzⱼ in every entry (when the program reads
/// s or r2), on exit k. xx (rows entries) and zz (cols entries) are the norms of the
/// block's points, null when the program reads neither them nor r2. `constants` are the
/// program's, in T. Returns false when a value of the block is not finite.
template <class T>
using BlockFn = bool (*)(const FormulaProgram& p, const T* constants, T* k, std::size_t ld,
                         std::size_t rows, std::size_t cols, const T* xx, const T* zz);

/// The transpose of a block: to[j + i·ld] = from[i + j·ld] for i < rows, j < cols.
template <class T>
using TransposeFn = void (*)(const T* from, T* to, std::size_t rows, std::size_t cols,
                             std::size_t ld);

struct Engine {
  const char* name;
  BlockFn<double> run64;
  BlockFn<float> run32;
  TransposeFn<double> transpose64;
  TransposeFn<float> transpose32;
};

extern const Engine kAvx512;
extern const Engine kAvx2;
extern const Engine kSse2;
extern const Engine kGeneric;

/// Whether kAvx512, kAvx2 and kSse2 were built (x86-64 with GCC or Clang).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
inline constexpr bool kX86Engines = true;
#else
inline constexpr bool kX86Engines = false;
#endif

}  // namespace kexp::detail::formula_engine
