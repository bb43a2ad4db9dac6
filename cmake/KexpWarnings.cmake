# kexp_set_warnings(TARGET): the warnings every kexp target is built with.
function(kexp_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
    -Wno-unknown-pragmas)
endfunction()
