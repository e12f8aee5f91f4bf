# PAGANI_VEGAS tests (filled in with tests/test_vegas.c).
