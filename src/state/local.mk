# src/state: what the state of a computation is made of, apart from any
# method: fingerprints of what is integrated (identity.h), used by the QMC
# parts' record and the MPI layer's agreement of the ranks.
libpagani_la_SOURCES += \
	src/state/identity.h \
	src/state/identity.c
