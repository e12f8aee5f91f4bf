# tests: the installed library, staged by `make install DESTDIR=...` and
# used through pkg-config with the README's build line.
TESTS += tests/test_install.sh
EXTRA_DIST += tests/test_install.sh
# The staged install relinks programs where sources changed since the
# build, so it runs after every other test, none of which is then running.
# (The target is named through a variable: written out, it would replace
# the rule Automake makes for it.)
install_test_log = tests/test_install.sh.log
$(install_test_log): $(filter-out $(install_test_log),$(TEST_LOGS))
