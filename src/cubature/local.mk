# src/cubature: PAGANI_CUBATURE's driver, the steps of its iterations
# and its threshold search (the paper's Algorithm 3).
libpagani_la_SOURCES += \
	src/cubature/cubature_run.h \
	src/cubature/cubature_driver.c \
	src/cubature/cubature_steps.c \
	src/cubature/cubature_vector.c \
	src/cubature/cubature_worst.c \
	src/cubature/worst_select.h \
	src/cubature/worst_select.c \
	src/cubature/cubature_checkpoint.c \
	src/cubature/threshold_search.h \
	src/cubature/threshold_search.c
