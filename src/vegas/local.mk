# src/vegas: PAGANI_VEGAS (m-Cubes): the driver and its planner.
libpagani_la_SOURCES += \
	src/vegas/vegas.h \
	src/vegas/vegas_plan.c \
	src/vegas/vegas_driver.c
