/* What a family of precise_math cases (tests/precise/<family>.h) declares: each case is
 * a GLSL statement computing r from the inputs a, b, c (of type T: float or double)
 * and k (int), and the exact value as a long double function of the same inputs. */
#ifndef AMPVK_TEST_PRECISE_HARNESS_H
#define AMPVK_TEST_PRECISE_HARNESS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* x[0..2] are a, b, c (as exact long doubles), k the int input. */
typedef long double (*pm_ref)(const long double *x, int k);

enum { PM_FLOAT = 1, PM_DOUBLE = 2, PM_BOTH = 3 };

typedef struct pm_case {
    const char *name;  /* the row: a function, or a function and which result ("frexp exponent") */
    const char *body;  /* GLSL: "r = precise_math_exp(a);" (T is the type; write T(0.5), not 0.5) */
    pm_ref ref;        /* the exact result */
    pm_ref ref_f;      /* the float result where it differs from ref's rounded (nextafter, fma); NULL: ref */
    int args;          /* how many of a, b, c are inputs (1 to 3) */
    bool int_arg;      /* k is an input (ldexp, scalbn), drawn from [int_lo, int_hi] */
    int int_lo, int_hi;
    double lo, hi;     /* where most of a (and c) is drawn; 0, 0: the whole line */
    double lo_b, hi_b; /* the same for b; 0, 0: as a */
    double ulp[2];     /* the bound in float and in double; 0: exact (bits, zero's sign included) */
    int types;         /* PM_FLOAT, PM_DOUBLE or PM_BOTH (0 = both) */
    const double *special; /* extra values of a (and of b, crossed with a's, for 2 arguments) */
    int nspecial;
    /* inputs where the bound does not hold (run and counted, not checked): NULL = none */
    bool (*skip)(const long double *x, int k, bool is_float);
} pm_case;

typedef struct pm_family {
    const char *name;
    const pm_case *cases;
    int count;
} pm_family;

#define PM_SPECIAL(...) .special = (const double[]){__VA_ARGS__}, \
                        .nspecial = sizeof((const double[]){__VA_ARGS__}) / sizeof(double)
#define PM_FAMILY(name, cases) {name, cases, (int)(sizeof cases / sizeof *cases)}

#endif
