# Warnings for our own code. Generated code (grammar/src/parser.c) is built without them.
function(ptxls_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wconversion -Wno-sign-conversion)
endfunction()
