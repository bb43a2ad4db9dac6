// The formula engine for AVX-512 (x86-64-v4): compiled with -march=x86-64-v4
// (formula_engine_isa.inl).
#define KEXP_FORMULA_ENGINE kAvx512
#define KEXP_FORMULA_ENGINE_NAME "avx512"
#include "sdk/formula_engine_isa.inl"
