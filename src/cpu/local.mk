# src/cpu: the OpenMP backend, one file per method (mirrors gpu/).
libpagani_la_SOURCES += \
	src/cpu/cpu_backend.h \
	src/cpu/cpu_backend.c \
	src/cpu/cpu_threads.c \
	src/cpu/cpu_block.h \
	src/cpu/cpu_block.c \
	src/cpu/cpu_cubature.h \
	src/cpu/cpu_cubature.c \
	src/cpu/cpu_cubature_eval.c \
	src/cpu/cpu_cubature_block.c \
	src/cpu/cpu_cubature_vector.c \
	src/cpu/cpu_cubature_hold.c \
	src/cpu/cpu_cubature_state.c \
	src/cpu/cpu_vegas.c \
	src/cpu/cpu_qmc.c
