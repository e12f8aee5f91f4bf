# src/cli: the `pagani` command-line program, built on the public API only.
bin_PROGRAMS += pagani
pagani_SOURCES = \
	src/cli/main.c \
	src/cli/args.c \
	src/cli/args.h \
	src/cli/help.c \
	src/cli/params_file.c \
	src/cli/params_file.h \
	src/cli/report.c \
	src/cli/report.h
pagani_LDADD = libpagani.la
dist_man_MANS += src/cli/pagani.1
