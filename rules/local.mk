# rules: the cubature rule tables, their expansion into points, and the
# error estimate and split axis that read them.
libpagani_la_SOURCES += \
	rules/rules.h \
	rules/rule_table.h \
	rules/fourth_difference.h \
	rules/probe.h \
	rules/graded.h \
	rules/error_sign.h \
	rules/null_error.h \
	rules/random_check.h \
	rules/component_norm.h \
	rules/rule.c \
	rules/expand.c \
	rules/estimate.c \
	rules/dcuhre7.c \
	rules/dcuhre9.c \
	rules/dcuhre11.c \
	rules/dcuhre13.c \
	rules/gauss_kronrod.c
