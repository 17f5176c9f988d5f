/* precise_math cases: the trig family (shaders/ampvk/precise_trig.glsl). */
#include "precise/harness.h"

static const pm_case pm_cases_trig[] = {{0}};
