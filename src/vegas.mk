# PAGANI_VEGAS (m-Cubes): the driver, its planner and grid adjustment, the
# Philox streams and the point and piece code shared with the GPU kernels,
# and the CPU backend's operations.
libpagani_la_SOURCES += \
	src/philox.h \
	src/vegas.h \
	src/vegas_backend.h \
	src/vegas_point.h \
	src/vegas_piece.h \
	src/vegas_plan.c \
	src/vegas_driver.c \
	src/vegas_grid.c \
	src/cpu_vegas.c
