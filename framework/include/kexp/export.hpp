// Symbol visibility for the kexp SDK. Everything is built with hidden visibility;
// what a plugin or the runner must reach across a shared-library boundary is marked
// KEXP_API (default visibility), so that exception types and vtables are shared.
#pragma once

#if defined(_WIN32)
#define KEXP_API
#else
#define KEXP_API __attribute__((visibility("default")))
#endif
