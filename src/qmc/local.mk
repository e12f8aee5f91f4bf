# src/qmc: PAGANI_QMC: the driver and its work splitting.
libpagani_la_SOURCES += \
	src/qmc/qmc.h \
	src/qmc/qmc_split.c \
	src/qmc/qmc_record.h \
	src/qmc/qmc_record.c \
	src/qmc/qmc_parts.c \
	src/qmc/qmc_run.h \
	src/qmc/qmc_checkpoint.c \
	src/qmc/qmc_tail.h \
	src/qmc/qmc_tail.c \
	src/qmc/qmc_driver.c
