# src/vegas: PAGANI_VEGAS (m-Cubes): the driver, its planner and the
# sampling passes of an iteration, its checkpoints and warm starts (single
# calls, and the two waves of a batch with batch_warm_stride).
libpagani_la_SOURCES += \
	src/vegas/vegas.h \
	src/vegas/vegas_plan.c \
	src/vegas/vegas_passes.c \
	src/vegas/vegas_checkpoint.c \
	src/vegas/vegas_warm.c \
	src/vegas/vegas_batch_warm.c \
	src/vegas/vegas_driver.c
