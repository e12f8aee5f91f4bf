# tests: the `pagani` command-line program (a TAP shell script, run from the
# build directory, where it finds ./pagani).
TESTS += tests/test_cli.sh
EXTRA_DIST += tests/test_cli.sh

