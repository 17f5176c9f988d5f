/* precise_math cases: the exp family (shaders/ampvk/precise_exp.glsl). */
#include "precise/harness.h"

static const pm_case pm_cases_exp[] = {{0}};
