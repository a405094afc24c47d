# Every dependency comes from Debian 12's archive (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)

# tree-sitter is linked statically by default: the chunked parser joins piece trees through
# functions libtree-sitter 0.20 exports but does not declare (core/syntax/SyntaxTree.cpp), so
# the binaries must run with exactly the runtime they were built and tested against, not
# whatever libtree-sitter0 a later system update brings. It also lets the VS Code extension
# carry a ptxls that needs no libtree-sitter on the user's machine.
option(PTXLS_STATIC_TREE_SITTER "Link the tree-sitter runtime statically (libtree-sitter.a)" ON)
# PTXLS_STATIC_RUNTIME: binaries that need nothing but glibc — the C++ runtime linked in too.
option(PTXLS_STATIC_RUNTIME "Link libstdc++ and libgcc statically as well" OFF)
if(PTXLS_STATIC_TREE_SITTER OR PTXLS_STATIC_RUNTIME)
  find_library(PTXLS_TREE_SITTER_ARCHIVE NAMES libtree-sitter.a HINTS ${TREE_SITTER_LIBRARY_DIRS} REQUIRED)
  set_property(TARGET PkgConfig::TREE_SITTER PROPERTY INTERFACE_LINK_LIBRARIES ${PTXLS_TREE_SITTER_ARCHIVE})
  set_property(TARGET PkgConfig::TREE_SITTER PROPERTY INTERFACE_LINK_DIRECTORIES "")
endif()
if(PTXLS_STATIC_RUNTIME)
  add_link_options(-static-libstdc++ -static-libgcc)
endif()
