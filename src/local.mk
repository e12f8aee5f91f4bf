# The host library: API, validation, the cubature driver, CPU backend.
libpagani_la_SOURCES += \
	src/backend.h \
	src/hostdevice.h \
	src/internal.h \
	src/methods.h \
	src/api.c \
	src/message.c \
	src/cubature.h \
	src/cubature_driver.c \
	src/threshold_search.c \
	src/cpu_backend.h \
	src/cpu_backend.c \
	src/cpu_cubature.c
