# Install rules and the Debian package (packaging/README.md). Included from the top-level
# CMakeLists.txt after every target is defined.
#
#   cmake --install build --prefix /usr/local      # install from a build tree
#   (cd build && cpack -G DEB)                       # -> ptxls_<version>_amd64.deb
#
# Everything is installed relative to the prefix; the binaries find nothing through paths
# recorded at build time (rule docs are compiled in). The tree-sitter runtime and the PTX
# grammar are linked statically into each binary (cmake/Dependencies.cmake says why).
include(GNUInstallDirs)

install(TARGETS ptxlint ptxls ptxfmt
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Man pages: each installed when present at install time (so a page added after configuring
# is picked up without re-running cmake, and no empty man1/ is left without pages).
foreach(page ptxlint.1 ptxls.1 ptxfmt.1)
  install(CODE "
    if(EXISTS \"${PROJECT_SOURCE_DIR}/docs/${page}\")
      file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man1\"
           TYPE FILE FILES \"${PROJECT_SOURCE_DIR}/docs/${page}\")
    endif()")
endforeach()

# The tree-sitter queries, for editors that use the grammar.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/grammar/queries/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ptxls/queries
        FILES_MATCHING PATTERN "*.scm")

# Documentation: README, the user-facing docs (docs/, its layout kept so relative links work:
# rules/ holds one page per rule, ci/ the CI examples), and the licence.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md" PATTERN "*.yml" PATTERN "*.yaml")
# Debian policy wants the licence as /usr/share/doc/<package>/copyright.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)

# --- CPack: a Debian package -------------------------------------------------------------
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "ptxls")
set(CPACK_PACKAGE_VENDOR "ptxls")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(PTXLS_PACKAGE_MAINTAINER
    "ptxls maintainers <maintainers@users.noreply.a-seed-6a343de3.example>"
    CACHE STRING "The Maintainer field of the Debian package")
set(CPACK_PACKAGE_CONTACT "${PTXLS_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "language server and static analyzer for NVIDIA PTX")
# The Debian description: the summary is its first line, this the extended text (CPack indents
# each line by one space).
set(CPACK_PACKAGE_DESCRIPTION
    "ptxls is a Language Server Protocol server for NVIDIA PTX: diagnostics,\n\
hover, go to definition, completion, semantic tokens, formatting and quick\n\
fixes. The package also ships ptxlint, a batch linter with text, JSON and\n\
SARIF output that finds syntax errors, ISA misuse and defects ptxas accepts\n\
silently (misaligned accesses, ABI violations, bad descriptors), ptxfmt, a\n\
PTX formatter, and the tree-sitter queries of the PTX grammar.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "ptxls")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)

set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # ptxls_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")

# Dependencies: computed by dpkg-shlibdeps where it exists, else the sonames the binaries
# link on Debian 12 (check with `ldd build/ptxlint`).
find_program(PTXLS_DPKG_SHLIBDEPS dpkg-shlibdeps)
mark_as_advanced(PTXLS_DPKG_SHLIBDEPS)
if(PTXLS_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libstdc++6 (>= 12), libgcc-s1 (>= 3.0), libc6 (>= 2.34)")
endif()

include(CPack)
