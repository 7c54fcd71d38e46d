# tests/: unit test programs of the lead's modules (each tests/NAME.c is
# linked against libgmpbench.a); the scripts tests/tNNNN-*.sh need no build.
CHECK_PROGRAMS += \
	tests/unit-stats \
	tests/unit-operand \
	tests/unit-score \
	tests/unit-checks
