# src (top): the public entry points, argument checks, integrands, the
# names of codes, the per-context message, and the backend interface
# (backend.h, vegas_backend.h, qmc_backend.h) that the drivers call and the
# backends implement.
libpagani_la_SOURCES += \
	src/internal.h \
	src/hostdevice.h \
	src/backend.h \
	src/vegas_backend.h \
	src/qmc_backend.h \
	src/methods.h \
	src/api.c \
	src/call_identity.c \
	src/auto_method.c \
	src/names.c \
	src/message.c \
	src/file_io.h \
	src/file_io.c \
	src/integrand.c
