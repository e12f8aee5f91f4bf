# examples: short programs a user copies from; built by `make check`.
check_PROGRAMS += examples/gauss examples/parameter_scan
examples_gauss_SOURCES = examples/gauss.c
examples_gauss_LDADD = libpagani.la
examples_parameter_scan_SOURCES = examples/parameter_scan.c
examples_parameter_scan_LDADD = libpagani.la
