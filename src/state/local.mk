# src/state: what the state of a computation is made of, apart from any
# method: fingerprints of what is integrated (identity.h), used by the QMC
# parts' record and the MPI layer's agreement of the ranks; checkpoints
# (checkpoint.h), their payload (state_payload.h) and file (state_file.h).
libpagani_la_SOURCES += \
	src/state/identity.h \
	src/state/identity.c \
	src/state/state_payload.h \
	src/state/state_payload.c \
	src/state/state_file.h \
	src/state/state_file.c \
	src/state/checkpoint.h \
	src/state/checkpoint.c
