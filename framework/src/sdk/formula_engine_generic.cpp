// The formula engine for any CPU, without SLEEF: the C library's functions one value at a time, the
// rest as the compiler vectorizes it (formula_engine_isa.inl).
#define KEXP_FORMULA_ENGINE kGeneric
#define KEXP_FORMULA_ENGINE_NAME "generic"
#undef KEXP_FORMULA_SLEEF
#include "sdk/formula_engine_isa.inl"
