/* precise_math cases: the hyp family (shaders/ampvk/precise_hyp.glsl). */
#include "precise/harness.h"

static const pm_case pm_cases_hyp[] = {{0}};
