# PAGANI_QMC: the Zinterhof half of the sampling module, the QMC driver,
# its work splitting and the CPU backend's operation.
libpagani_la_SOURCES += \
	src/zinterhof.h \
	src/zinterhof_table.h \
	src/zinterhof_table.c \
	src/exact_sum.h \
	src/qmc_point.h \
	src/qmc_backend.h \
	src/qmc.h \
	src/qmc_split.c \
	src/qmc_driver.c \
	src/cpu_qmc.c
EXTRA_DIST += src/gen_zinterhof_table.py
