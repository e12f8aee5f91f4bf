# src/domain: unbounded axes and break points. The change of variables
# that maps them onto finite intervals (domain_map, whose code is also the
# text the generated source of compiled integrands includes), the check
# of its options (domain_options), the tables of break points
# (domain_breaks) and the batch in those variables that
# the drivers run (domain_batch).
libpagani_la_SOURCES += \
	src/domain/domain.h \
	src/domain/domain_map.c \
	src/domain/domain_options.c \
	src/domain/domain_breaks.c \
	src/domain/domain_batch.c
