# Every dependency comes from Debian 12's archive (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)

# PTXLS_STATIC_RUNTIME: binaries that run on any x86-64 Linux with glibc, whatever else is
# installed — tree-sitter's runtime and the C++ runtime linked in (the VS Code extension carries
# such a ptxls). Off for Debian packages, which depend on libtree-sitter0 instead.
option(PTXLS_STATIC_RUNTIME "Link libtree-sitter, libstdc++ and libgcc statically" OFF)
if(PTXLS_STATIC_RUNTIME)
  find_library(PTXLS_TREE_SITTER_ARCHIVE NAMES libtree-sitter.a HINTS ${TREE_SITTER_LIBRARY_DIRS} REQUIRED)
  set_property(TARGET PkgConfig::TREE_SITTER PROPERTY INTERFACE_LINK_LIBRARIES ${PTXLS_TREE_SITTER_ARCHIVE})
  set_property(TARGET PkgConfig::TREE_SITTER PROPERTY INTERFACE_LINK_DIRECTORIES "")
  add_link_options(-static-libstdc++ -static-libgcc)
endif()
