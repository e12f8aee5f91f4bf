# src/domain: unbounded axes. The change of variables that maps them onto
# finite intervals (domain_map, whose code is also the text the generated
# source of compiled integrands includes) and the batch in those variables
# that the drivers run (domain_batch).
libpagani_la_SOURCES += \
	src/domain/domain.h \
	src/domain/domain_map.c \
	src/domain/domain_batch.c
