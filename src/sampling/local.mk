# src/sampling: the shared sampling module. Philox streams, Zinterhof
# sequences and their generators, exact sums, and the points of Vegas (the
# importance grid) and QMC (the periodising transforms), written once for
# the host and the GPU kernels.
libpagani_la_SOURCES += \
	src/sampling/philox.h \
	src/sampling/zinterhof.h \
	src/sampling/zinterhof_table.h \
	src/sampling/zinterhof_table.c \
	src/sampling/exact_sum.h \
	src/sampling/qmc_point.h \
	src/sampling/vegas_point.h \
	src/sampling/vegas_piece.h \
	src/sampling/vegas_grid.h \
	src/sampling/vegas_grid.c
EXTRA_DIST += src/sampling/gen_zinterhof_table.py
