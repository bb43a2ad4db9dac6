// The formula engine for AVX2 with FMA (x86-64-v3): compiled with -march=x86-64-v3
// (formula_engine_isa.inl).
#define KEXP_FORMULA_ENGINE kAvx2
#define KEXP_FORMULA_ENGINE_NAME "avx2"
#include "sdk/formula_engine_isa.inl"
