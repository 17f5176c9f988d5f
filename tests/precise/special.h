/* precise_math cases: the special family (shaders/ampvk/precise_special.glsl). */
#include "precise/harness.h"

static const pm_case pm_cases_special[] = {{0}};
