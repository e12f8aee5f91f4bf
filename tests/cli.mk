# tests: the `pagani` command-line program (a TAP shell script, run from the
# build directory, where it finds ./pagani). tap.sh: the TAP helpers of the
# shell tests.
TESTS += tests/test_cli.sh
EXTRA_DIST += tests/test_cli.sh tests/tap.sh

