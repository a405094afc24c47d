# Every dependency comes from Debian 12's archive (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
