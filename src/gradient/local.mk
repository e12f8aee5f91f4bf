# src/gradient: integrals with their parameter derivatives, as vector
# integrands [f, df/dp...] (gradient.h): the dual numbers that
# differentiate source (dual_text), the unit they compile in
# (gradient_unit), the message naming what they refuse
# (gradient_explain), the public entries (gradient_api) and the
# derivatives by the limits, integrals over faces (faces).
libpagani_la_SOURCES += \
	src/gradient/gradient.h \
	src/gradient/dual_text.h \
	src/gradient/dual_text.c \
	src/gradient/gradient_unit.c \
	src/gradient/gradient_explain.c \
	src/gradient/gradient_api.c \
	src/gradient/faces.c
