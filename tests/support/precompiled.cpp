// The owner of the tests' precompiled header (tests/CMakeLists.txt): a test program with
// no test, built only so that its header can be reused by the others.
