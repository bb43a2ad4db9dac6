// The formula engine for the x86-64 baseline, SSE2 (formula_engine_isa.inl).
#define KEXP_FORMULA_ENGINE kSse2
#define KEXP_FORMULA_ENGINE_NAME "sse2"
#include "sdk/formula_engine_isa.inl"
