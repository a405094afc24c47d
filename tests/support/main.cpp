// The Catch2 entry point for ptxls_tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
