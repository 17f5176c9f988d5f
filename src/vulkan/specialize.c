/* Specialization of a SPIR-V module before the driver sees it.
 *
 * The built-in filters are a few large modules whose specialization constants pick the
 * mode, the pass, the radius, the border and the pointwise program; the code of every
 * other choice is there too (packed.comp: 225 KB of SPIR-V, of which a copy keeps 11).
 * A driver removes it only after it has translated and lowered all of it: lavapipe spent
 * almost all of the time it took to make each of packed.comp's pipelines in NIR's passes
 * over code its first folding would have removed. This file does that folding first:
 * the constants' values set (OpSpecConstant* become OpConstant*), then sparse
 * conditional constant propagation over each function (a value is unknown, a constant or
 * varying; a block is reached or not; OpPhi meets over the edges reached), then the
 * blocks no reached edge leads to dropped, OpPhi's entries from them dropped, a branch on
 * a constant condition given the constant, and the instructions without side effects
 * whose results nothing reads removed. The live code is the module's own, instruction for
 * instruction; what the driver sees is only smaller.
 *
 * Branches and merge instructions stay as they are, so the structure stays valid: a block
 * no reached edge leads to, where a reached block's branch or merge instruction names it,
 * stays as a stub, OpUnreachable, or for a loop's continue target an OpBranch back to
 * the header (whose OpPhi get an entry for it). (Dropping a selection's merge where its
 * branch had become one broke the early returns that spirv-opt wraps in a one-case
 * OpSwitch: their branches to its merge were breaks.) What this file does not know (a
 * specialization constant of other than 32 bits, one given in other than 4 bytes, an
 * extended instruction set other than GLSL.std.450, a function it cannot read) makes it
 * give up: the caller passes the module and its constants as they are. Only 32-bit
 * integers and floats and booleans are evaluated; floats only compared. */
#include <spirv/unified1/GLSL.std.450.h>
#include <stdbool.h>
/* spirv.h's table of which instructions have results (SpvHasResultAndType) is a C99
 * inline definition: the declaration after it makes this file hold the one definition,
 * hidden from the library's users. */
#define SPV_ENABLE_UTILITY_CODE
#pragma GCC visibility push(hidden)
#include <spirv/unified1/spirv.h>
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);
#pragma GCC visibility pop
#include <stdlib.h>
#include <string.h>

#include "vulkan/gpu.h"

enum { TOP = 0, CONST = 1, VARYING = 2 };        /* a value's lattice state */
enum { K_NONE = 0, K_BOOL, K_INT, K_FLOAT };     /* a type as evaluated (32 bits, or bool) */

typedef struct block {
    uint32_t label; /* the block's label id */
    size_t at, end; /* word offsets: its OpLabel, and past its terminator */
    size_t merge;   /* its OpSelectionMerge or OpLoopMerge, or 0 */
    size_t term;    /* its terminator */
} block;

typedef struct spec_state {
    const uint32_t *w;
    size_t n;
    uint32_t bound;
    size_t *def;       /* id -> offset of the instruction that defines it (0: none) */
    uint8_t *state;    /* id -> TOP, CONST, VARYING */
    uint32_t *value;   /* id -> its bits where CONST */
    uint8_t *kind;     /* type id -> K_* */
    uint8_t *reached;  /* label id -> 1 where some reached edge leads to the block */
    uint8_t *stub;     /* label id -> how a block not reached is written (find_stubs) */
    uint32_t *header;  /* label id -> the loop header a continue block's stub goes back to */
    uint32_t bool_constant[2]; /* OpConstantFalse and OpConstantTrue ids (of the bool type), or 0 */
    int32_t *block_of; /* label id -> the block's index in the current function, or -1 */
    uint32_t *uses;    /* id -> reads by kept instructions (for the dead code) */
    uint8_t *keep;     /* word offset -> whether the instruction there is written */
    uint32_t glsl_set; /* the GLSL.std.450 import's id, or 0 */
    block *blocks;     /* the current function's, in its order */
    size_t nblocks, cap;
    bool changed;
} spec_state;

static uint32_t op_of(const uint32_t *w, size_t at) { return w[at] & 0xffffu; }
static uint32_t len_of(const uint32_t *w, size_t at) { return w[at] >> 16; }

/* Whether an opcode has a result id; *typed: and a result type before it. */
static bool has_result(uint32_t op, bool *typed)
{
    bool t = false, r = false;
    SpvHasResultAndType((SpvOp)op, &r, &t);
    *typed = t;
    return r;
}

/* An id's state as an operand, its bits in *v where CONST. */
static int get(const spec_state *s, uint32_t id, uint32_t *v)
{
    if (id >= s->bound) return VARYING;
    *v = s->value[id];
    return s->state[id];
}

static float as_float(uint32_t v)
{
    float f;
    memcpy(&f, &v, 4);
    return f;
}

/* Evaluates operation op on 32-bit or boolean operands a[0..n-1] (their states in st)
 * into *out; the result's state. Only what the filters' constants need: integer
 * arithmetic, bits, comparisons, logic, selection and float comparisons. */
static int evaluate(const spec_state *s, uint32_t op, int kind, const uint32_t *ids, int n, uint32_t *out)
{
    uint32_t a[3] = {0, 0, 0};
    int st[3] = {VARYING, VARYING, VARYING};
    if (n > 3 || kind == K_NONE) return VARYING;
    for (int i = 0; i < n; i++) st[i] = get(s, ids[i], &a[i]);
    /* the operations that a constant decides whatever the others are */
    if (op == SpvOpLogicalAnd || op == SpvOpLogicalOr) {
        uint32_t absorb = op == SpvOpLogicalOr;
        for (int i = 0; i < 2; i++)
            if (st[i] == CONST && (a[i] != 0) == absorb) return *out = absorb, CONST;
    }
    if (op == SpvOpSelect) {
        if (st[0] != CONST) return st[0];
        int i = a[0] ? 1 : 2;
        *out = a[i];
        return st[i];
    }
    for (int i = 0; i < n; i++)
        if (st[i] != CONST) return st[i] == VARYING ? VARYING : TOP;
    int32_t x = (int32_t)a[0], y = (int32_t)a[1];
    uint32_t u = a[0], v = a[1];
    float f = as_float(a[0]), g = as_float(a[1]);
    switch (op) {
    case SpvOpCopyObject:
    case SpvOpBitcast:
    case SpvOpSConvert:
    case SpvOpUConvert: *out = u; return CONST; /* 32 bits to 32 bits */
    case SpvOpSNegate: *out = 0u - u; return CONST;
    case SpvOpNot: *out = ~u; return CONST;
    case SpvOpIAdd: *out = u + v; return CONST;
    case SpvOpISub: *out = u - v; return CONST;
    case SpvOpIMul: *out = u * v; return CONST;
    case SpvOpUDiv: return v ? (*out = u / v, CONST) : VARYING;
    case SpvOpUMod: return v ? (*out = u % v, CONST) : VARYING;
    case SpvOpSDiv: return y && !(x == INT32_MIN && y == -1) ? (*out = (uint32_t)(x / y), CONST) : VARYING;
    case SpvOpSRem: return y && !(x == INT32_MIN && y == -1) ? (*out = (uint32_t)(x % y), CONST) : VARYING;
    case SpvOpSMod:
        if (!y || (x == INT32_MIN && y == -1)) return VARYING;
        *out = (uint32_t)(x % y != 0 && ((x % y) < 0) != (y < 0) ? x % y + y : x % y);
        return CONST;
    case SpvOpShiftLeftLogical: return v < 32 ? (*out = u << v, CONST) : VARYING;
    case SpvOpShiftRightLogical: return v < 32 ? (*out = u >> v, CONST) : VARYING;
    case SpvOpShiftRightArithmetic: return v < 32 ? (*out = (uint32_t)(x < 0 ? ~(~x >> v) : x >> v), CONST) : VARYING;
    case SpvOpBitwiseAnd: *out = u & v; return CONST;
    case SpvOpBitwiseOr: *out = u | v; return CONST;
    case SpvOpBitwiseXor: *out = u ^ v; return CONST;
    case SpvOpIEqual:
    case SpvOpLogicalEqual: *out = kind == K_BOOL && op == SpvOpLogicalEqual ? (u != 0) == (v != 0) : u == v; return CONST;
    case SpvOpINotEqual:
    case SpvOpLogicalNotEqual: *out = op == SpvOpLogicalNotEqual ? (u != 0) != (v != 0) : u != v; return CONST;
    case SpvOpSLessThan: *out = x < y; return CONST;
    case SpvOpSLessThanEqual: *out = x <= y; return CONST;
    case SpvOpSGreaterThan: *out = x > y; return CONST;
    case SpvOpSGreaterThanEqual: *out = x >= y; return CONST;
    case SpvOpULessThan: *out = u < v; return CONST;
    case SpvOpULessThanEqual: *out = u <= v; return CONST;
    case SpvOpUGreaterThan: *out = u > v; return CONST;
    case SpvOpUGreaterThanEqual: *out = u >= v; return CONST;
    case SpvOpLogicalAnd: *out = u && v; return CONST;
    case SpvOpLogicalOr: *out = u || v; return CONST;
    case SpvOpLogicalNot: *out = !u; return CONST;
    case SpvOpFOrdEqual: *out = f == g; return CONST;
    case SpvOpFOrdNotEqual: *out = f < g || f > g; return CONST;
    case SpvOpFOrdLessThan: *out = f < g; return CONST;
    case SpvOpFOrdGreaterThan: *out = f > g; return CONST;
    case SpvOpFOrdLessThanEqual: *out = f <= g; return CONST;
    case SpvOpFOrdGreaterThanEqual: *out = f >= g; return CONST;
    case SpvOpFUnordEqual: *out = !(f < g || f > g); return CONST;
    case SpvOpFUnordNotEqual: *out = !(f == g); return CONST;
    case SpvOpFUnordLessThan: *out = !(f >= g); return CONST;
    case SpvOpFUnordGreaterThan: *out = !(f <= g); return CONST;
    case SpvOpFUnordLessThanEqual: *out = !(f > g); return CONST;
    case SpvOpFUnordGreaterThanEqual: *out = !(f < g); return CONST;
    default: return VARYING;
    }
}

/* GLSL.std.450's integer abs, min and max on constants (extended instruction e). */
static int evaluate_glsl(const spec_state *s, uint32_t e, int kind, const uint32_t *ids, int n, uint32_t *out)
{
    uint32_t a[2] = {0, 0};
    if (kind != K_INT || n < 1 || n > 2) return VARYING;
    int worst = CONST;
    for (int i = 0; i < n; i++) {
        int st = get(s, ids[i], &a[i]);
        if (st == VARYING) return VARYING;
        if (st == TOP) worst = TOP;
    }
    if (worst == TOP) return TOP;
    int32_t x = (int32_t)a[0], y = (int32_t)a[1];
    switch (e) {
    case GLSLstd450SAbs: return n == 1 ? (*out = x < 0 ? 0u - a[0] : a[0], CONST) : VARYING;
    case GLSLstd450SMin: return n == 2 ? (*out = (uint32_t)(x < y ? x : y), CONST) : VARYING;
    case GLSLstd450SMax: return n == 2 ? (*out = (uint32_t)(x > y ? x : y), CONST) : VARYING;
    case GLSLstd450UMin: return n == 2 ? (*out = a[0] < a[1] ? a[0] : a[1], CONST) : VARYING;
    case GLSLstd450UMax: return n == 2 ? (*out = a[0] > a[1] ? a[0] : a[1], CONST) : VARYING;
    default: return VARYING;
    }
}

/* Lowers id's state to the meet of it and (st, v). */
static void lower(spec_state *s, uint32_t id, int st, uint32_t v)
{
    if (id >= s->bound || st == TOP || s->state[id] == VARYING) return;
    if (s->state[id] == CONST && st == CONST && s->value[id] == v) return;
    s->state[id] = (uint8_t)(s->state[id] == CONST ? VARYING : st);
    s->value[id] = v;
    s->changed = true;
}

/* Whether block b's terminator, as the values stand, can go to label t. */
static bool takes(const spec_state *s, const block *b, uint32_t t)
{
    const uint32_t *w = s->w;
    size_t at = b->term;
    uint32_t v, op = op_of(w, at), n = len_of(w, at);
    if (!s->reached[b->label]) return false;
    if (op == SpvOpBranch) return w[at + 1] == t;
    if (op != SpvOpBranchConditional && op != SpvOpSwitch) return false;
    int st = get(s, w[at + 1], &v);
    if (st == TOP) return false;
    if (op == SpvOpBranchConditional) return st == CONST ? w[at + (v ? 2 : 3)] == t : w[at + 2] == t || w[at + 3] == t;
    /* OpSwitch: selector, default, then (literal, label) pairs (32-bit selectors) */
    if (st == CONST) {
        for (uint32_t i = 3; i + 1 < n; i += 2)
            if (w[at + i] == v) return w[at + i + 1] == t;
        return w[at + 2] == t;
    }
    for (uint32_t i = 2; i < n; i += 2) /* the default, then each case's label */
        if (w[at + i] == t) return true;
    return false;
}

/* How many labels the terminator at `at` names, and its j-th (OpSwitch: the default,
 * then each case's). */
static uint32_t targets(const uint32_t *w, size_t at)
{
    uint32_t op = op_of(w, at);
    return op == SpvOpBranch ? 1 : op == SpvOpBranchConditional ? 2 : op == SpvOpSwitch ? (len_of(w, at) - 1) / 2 : 0;
}
static uint32_t target(const uint32_t *w, size_t at, uint32_t j)
{
    uint32_t op = op_of(w, at);
    return op == SpvOpBranch ? w[at + 1] : op == SpvOpBranchConditional ? w[at + 2 + j] : w[at + 2 + 2 * j];
}

/* Member `index` of composite id, where id is a constant composite (OpSpecConstantOp's
 * and the functions' OpCompositeExtract of one index): that member's state; else varying. */
static int member(const spec_state *s, uint32_t id, uint32_t index, uint32_t *v)
{
    const uint32_t *w = s->w;
    size_t c = id < s->bound ? s->def[id] : 0;
    if (!c || (op_of(w, c) != SpvOpConstantComposite && op_of(w, c) != SpvOpSpecConstantComposite) ||
        index + 3 >= len_of(w, c))
        return VARYING;
    return get(s, w[c + 3 + index], v);
}

/* The state of the result of the instruction at `at` in block b, as its operands stand. */
static int evaluate_at(const spec_state *s, const block *b, size_t at, int kind, uint32_t *v)
{
    const uint32_t *w = s->w;
    uint32_t op = op_of(w, at), n = len_of(w, at);
    if (op == SpvOpPhi) { /* the meet over the edges reached */
        int st = TOP;
        for (uint32_t k = 3; k + 1 < n; k += 2) {
            uint32_t from = w[at + k + 1], pv = 0;
            int32_t p = from < s->bound ? s->block_of[from] : -1;
            if (p < 0 || !takes(s, &s->blocks[p], b->label)) continue;
            int ps = kind == K_NONE ? VARYING : get(s, w[at + k], &pv);
            if (ps == TOP) continue;
            if (st == TOP) st = ps, *v = pv;
            else if (ps == VARYING || pv != *v) st = VARYING;
        }
        return st;
    }
    if (op == SpvOpExtInst)
        return s->glsl_set && w[at + 3] == s->glsl_set ? evaluate_glsl(s, w[at + 4], kind, &w[at + 5], (int)n - 5, v)
                                                        : VARYING;
    if (op == SpvOpCompositeExtract && n == 5) return member(s, w[at + 3], w[at + 4], v);
    return evaluate(s, op, kind, &w[at + 3], (int)n - 3, v);
}

/* Propagates over the current function until nothing changes: each sweep takes the
 * blocks in their order (a block after those that dominate it), evaluates the results
 * of those reached and marks what their terminators reach. */
static void propagate(spec_state *s)
{
    const uint32_t *w = s->w;
    s->reached[s->blocks[0].label] = 1;
    for (;;) {
        do {
            s->changed = false;
            for (size_t i = 0; i < s->nblocks; i++) {
                const block *b = &s->blocks[i];
                if (!s->reached[b->label]) continue;
                for (size_t at = b->at + len_of(w, b->at); at < b->term; at += len_of(w, at)) {
                    bool typed;
                    if (!has_result(op_of(w, at), &typed) || !typed) continue;
                    uint32_t type = w[at + 1], v = 0;
                    int kind = type < s->bound ? s->kind[type] : K_NONE;
                    int st = evaluate_at(s, b, at, kind, &v);
                    lower(s, w[at + 2], st, v);
                }
                for (uint32_t j = 0, k = targets(w, b->term); j < k; j++) {
                    uint32_t t = target(w, b->term, j);
                    if (t < s->bound && !s->reached[t] && takes(s, b, t)) s->reached[t] = 1, s->changed = true;
                }
            }
        } while (s->changed);
        /* a condition still unknown (only from values never defined) is varying */
        bool again = false;
        for (size_t i = 0; i < s->nblocks; i++) {
            const block *b = &s->blocks[i];
            uint32_t op = op_of(w, b->term), v;
            if (s->reached[b->label] && (op == SpvOpBranchConditional || op == SpvOpSwitch) &&
                get(s, w[b->term + 1], &v) == TOP)
                s->state[w[b->term + 1]] = VARYING, again = true;
        }
        if (!again) return;
    }
}

/* Reads the blocks of the function whose first OpLabel is at `at`; the offset of its
 * OpFunctionEnd, or 0 where the function is not as this file expects. */
static size_t read_blocks(spec_state *s, size_t at)
{
    const uint32_t *w = s->w;
    s->nblocks = 0;
    for (; at < s->n && op_of(w, at) != SpvOpFunctionEnd; at += len_of(w, at)) {
        uint32_t op = op_of(w, at);
        if (op == SpvOpLabel) {
            if (s->nblocks == s->cap) {
                size_t cap = s->cap ? 2 * s->cap : 256;
                block *b = realloc(s->blocks, cap * sizeof *b);
                if (!b) return 0;
                s->blocks = b, s->cap = cap;
            }
            s->blocks[s->nblocks++] = (block){.label = w[at + 1], .at = at};
            s->block_of[w[at + 1]] = (int32_t)(s->nblocks - 1);
            continue;
        }
        if (s->nblocks == 0) return 0;
        block *b = &s->blocks[s->nblocks - 1];
        if (b->term) return 0; /* an instruction after a terminator */
        if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) b->merge = at;
        if (op == SpvOpSwitch && !(w[at + 1] < s->bound && s->def[w[at + 1]] &&
                                   s->kind[w[s->def[w[at + 1]] + 1]] == K_INT))
            return 0; /* a selector of other than 32 bits */
        if (op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpReturn ||
            op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpUnreachable || op == SpvOpTerminateInvocation)
            b->term = at, b->end = at + len_of(w, at);
    }
    if (at >= s->n) return 0;
    for (size_t i = 0; i < s->nblocks; i++)
        if (!s->blocks[i].term) return 0;
    return at;
}

/* Whether an instruction may go when no one reads its result: no side effects. */
static bool pure(uint32_t op)
{
    switch (op) {
    case SpvOpUndef: case SpvOpLoad: case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic: case SpvOpVectorShuffle:
    case SpvOpCompositeConstruct: case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpCopyObject:
    case SpvOpTranspose: case SpvOpSampledImage: case SpvOpImage: case SpvOpImageFetch: case SpvOpImageQuerySize:
    case SpvOpImageQuerySizeLod: case SpvOpImageQueryLevels: case SpvOpImageSampleExplicitLod:
    case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpQuantizeToF16: case SpvOpBitcast:
    case SpvOpSNegate: case SpvOpFNegate: case SpvOpIAdd: case SpvOpFAdd: case SpvOpISub: case SpvOpFSub:
    case SpvOpIMul: case SpvOpFMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpFDiv: case SpvOpUMod: case SpvOpSRem:
    case SpvOpSMod: case SpvOpFRem: case SpvOpFMod: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar:
    case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesVector: case SpvOpMatrixTimesMatrix: case SpvOpDot:
    case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended:
    case SpvOpAny: case SpvOpAll: case SpvOpIsNan: case SpvOpIsInf:
    case SpvOpLogicalEqual: case SpvOpLogicalNotEqual: case SpvOpLogicalOr: case SpvOpLogicalAnd:
    case SpvOpLogicalNot: case SpvOpSelect: case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan:
    case SpvOpSGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual: case SpvOpULessThan:
    case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual: case SpvOpFOrdEqual:
    case SpvOpFUnordEqual: case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual: case SpvOpFOrdLessThan:
    case SpvOpFUnordLessThan: case SpvOpFOrdGreaterThan: case SpvOpFUnordGreaterThan: case SpvOpFOrdLessThanEqual:
    case SpvOpFUnordLessThanEqual: case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordGreaterThanEqual:
    case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: case SpvOpShiftLeftLogical: case SpvOpBitwiseOr:
    case SpvOpBitwiseXor: case SpvOpBitwiseAnd: case SpvOpNot: case SpvOpBitFieldInsert: case SpvOpBitFieldSExtract:
    case SpvOpBitFieldUExtract: case SpvOpBitReverse: case SpvOpBitCount: case SpvOpPhi: case SpvOpExtInst:
        return true;
    default: return false;
    }
}

/* The stubs of the current function: a block no reached edge leads to stays, as an
 * OpUnreachable (stub[label] 1), where a reached block's branch or merge instruction
 * names it, and as an OpBranch back to its loop's header (2; header[label]) where a
 * reached loop header names it its continue target. */
static void find_stubs(spec_state *s)
{
    const uint32_t *w = s->w;
    for (size_t i = 0; i < s->nblocks; i++) s->stub[s->blocks[i].label] = 0;
    for (size_t i = 0; i < s->nblocks; i++) {
        const block *b = &s->blocks[i];
        if (!s->reached[b->label]) continue;
        uint32_t k = targets(w, b->term);
        for (uint32_t j = 0; j <= k; j++) { /* the targets, then the merge block */
            uint32_t t = j < k ? target(w, b->term, j) : b->merge ? w[b->merge + 1] : b->label;
            if (t < s->bound && !s->reached[t] && !s->stub[t]) s->stub[t] = 1;
        }
        if (b->merge && op_of(w, b->merge) == SpvOpLoopMerge && !s->reached[w[b->merge + 2]])
            s->stub[w[b->merge + 2]] = 2, s->header[w[b->merge + 2]] = b->label;
    }
}

/* Counts (delta 1) or uncounts (-1) the ids an instruction reads (its literals too:
 * a literal that equals a removable id's number only keeps that instruction). */
static void count_uses(spec_state *s, size_t at, int delta)
{
    const uint32_t *w = s->w;
    uint32_t op = op_of(w, at), n = len_of(w, at);
    bool typed, result = has_result(op, &typed);
    uint32_t from = result ? (typed ? 3 : 2) : 1;
    for (uint32_t k = from; k < n; k++)
        if (w[at + k] < s->bound) s->uses[w[at + k]] += (uint32_t)delta;
}

/* The OpConstantTrue or OpConstantFalse that block b's OpBranchConditional is written
 * with where its condition is a constant (its comparison then goes, if nothing else
 * reads it), else 0. */
static uint32_t folded_condition(const spec_state *s, const block *b)
{
    uint32_t v;
    if (op_of(s->w, b->term) != SpvOpBranchConditional || get(s, s->w[b->term + 1], &v) != CONST) return 0;
    return s->bool_constant[v != 0];
}

/* Marks the current function's instructions to keep: those of the reached blocks but
 * the ones without side effects whose results no kept instruction reads, and the labels
 * of the stubs (find_stubs first). */
static void mark_kept(spec_state *s)
{
    const uint32_t *w = s->w;
    for (size_t i = 0; i < s->nblocks; i++) {
        const block *b = &s->blocks[i];
        for (size_t at = b->at; at < b->end; at += len_of(w, at)) {
            s->keep[at] = s->reached[b->label];
            if (s->keep[at]) count_uses(s, at, 1);
        }
        if (s->reached[b->label] && folded_condition(s, b)) s->uses[w[b->term + 1]]--; /* written as the constant */
        if (s->stub[b->label]) s->keep[b->at] = 1; /* a stub's label (its name stays) */
    }
    for (bool again = true; again;) {
        again = false;
        for (size_t i = s->nblocks; i-- > 0;) {
            const block *b = &s->blocks[i];
            for (size_t at = b->at; at < b->term; at += len_of(w, at)) {
                if (!s->keep[at] || !pure(op_of(w, at)) || s->uses[w[at + 2]] != 0) continue;
                s->keep[at] = 0;
                count_uses(s, at, -1);
                again = true;
            }
        }
    }
}

/* Appends n words to the module being written (core's byte buffer: amp__bytes). */
static void put(amp__bytes *o, const uint32_t *src, size_t n) { amp__bytes_put(o, src, n * 4); }
/* The words written so far, and word i of them (a realloc'd buffer: aligned for words). */
static size_t written(const amp__bytes *o) { return o->n / 4; }
static uint32_t *word(amp__bytes *o, size_t i) { return (uint32_t *)(void *)o->data + i; }

/* Puts an instruction of n words (1 to 4): op and up to three operands. */
static void put_op(amp__bytes *o, uint32_t op, uint32_t n, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t i[4] = {n << 16 | op, a, b, c};
    put(o, i, n);
}

/* Writes block i of the current function: a reached one's kept instructions, its
 * OpPhi without the entries of blocks not reached (and with one for its continue
 * block's stub), a branch on a constant condition on the constant; a block not reached
 * as its stub, or not at all. */
static void write_block(const spec_state *s, amp__bytes *o, size_t i)
{
    const uint32_t *w = s->w;
    const block *b = &s->blocks[i];
    if (!s->reached[b->label]) {
        if (!s->stub[b->label]) return;
        put_op(o, SpvOpLabel, 2, b->label, 0, 0);
        if (s->stub[b->label] == 2) put_op(o, SpvOpBranch, 2, s->header[b->label], 0, 0);
        else put_op(o, SpvOpUnreachable, 1, 0, 0, 0);
        return;
    }
    /* a loop header whose continue target is a stub (find_stubs's) */
    uint32_t cont = b->merge && op_of(w, b->merge) == SpvOpLoopMerge ? w[b->merge + 2] : 0;
    uint32_t stub = cont && s->stub[cont] == 2 ? cont : 0, folded = folded_condition(s, b);
    for (size_t at = b->at; at < b->end; at += len_of(w, at)) {
        uint32_t op = op_of(w, at), n = len_of(w, at);
        if (!s->keep[at]) continue;
        size_t start = written(o);
        if (op == SpvOpPhi) {
            put(o, &w[at], 3);
            for (uint32_t k = 3; k + 1 < n; k += 2)
                if (w[at + k + 1] < s->bound && s->reached[w[at + k + 1]]) put(o, &w[at + k], 2);
            if (stub && !o->failed && written(o) > start + 3) { /* the stub's entry: the first kept one's value */
                uint32_t entry[2] = {*word(o, start + 3), stub};
                put(o, entry, 2);
            }
            if (!o->failed) *word(o, start) = (uint32_t)(written(o) - start) << 16 | SpvOpPhi;
            continue;
        }
        put(o, &w[at], n);
        if (at == b->term && folded && !o->failed) *word(o, start + 1) = folded;
    }
}

/* The value spec gives constant constant_id into *v (left as it is where spec gives
 * none); false where spec gives it in other than 4 bytes. */
static bool spec_value(const VkSpecializationInfo *spec, uint32_t constant_id, uint32_t *v)
{
    for (uint32_t i = 0; spec && i < spec->mapEntryCount; i++) {
        const VkSpecializationMapEntry *e = &spec->pMapEntries[i];
        if (e->constantID != constant_id) continue;
        if (e->size != 4 || e->offset + 4 > spec->dataSize) return false;
        memcpy(v, (const char *)spec->pData + e->offset, 4);
        return true;
    }
    return true;
}

/* The value of the constant defined at `at` (before the functions) into s (an operation
 * on constants that this cannot evaluate stays varying, and is written as it is); false
 * where it is a specialization constant of other than 32 bits or given other than 4 bytes. */
static bool read_constant(spec_state *s, size_t at, const uint32_t *spec_id, const VkSpecializationInfo *spec)
{
    const uint32_t *w = s->w;
    uint32_t op = op_of(w, at), len = len_of(w, at), v = 0;
    if (len < 3) return true;
    uint32_t type = w[at + 1], id = w[at + 2];
    int kind = type < s->bound ? s->kind[type] : K_NONE, st = VARYING;
    switch (op) {
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
        st = CONST, v = op == SpvOpConstantTrue;
        if (kind == K_BOOL && !s->bool_constant[v]) s->bool_constant[v] = id;
        break;
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse:
        v = op == SpvOpSpecConstantTrue;
        if (spec_id[id] && !spec_value(spec, spec_id[id] - 1, &v)) return false;
        st = CONST, v = v != 0;
        break;
    case SpvOpConstant:
    case SpvOpSpecConstant:
        if (kind == K_NONE || kind == K_BOOL || len != 4) return op == SpvOpConstant;
        v = w[at + 3];
        if (op == SpvOpSpecConstant && spec_id[id] && !spec_value(spec, spec_id[id] - 1, &v)) return false;
        st = CONST;
        break;
    case SpvOpSpecConstantOp:
        if (len < 4) return false;
        st = w[at + 3] == SpvOpCompositeExtract && len == 6 ? member(s, w[at + 4], w[at + 5], &v)
                                                              : evaluate(s, w[at + 3], kind, &w[at + 4], (int)len - 4, &v);
        break; /* one this cannot evaluate (CooperativeMatrixLengthNV) stays as it is, varying */
    default: return true;
    }
    s->state[id] = (uint8_t)st;
    s->value[id] = v;
    return true;
}

/* Writes the instruction at `at` before the functions: SpecId decorations dropped, and
 * names and decorations of ids no longer defined; specialization constants as constants
 * of their values. */
static void write_header(const spec_state *s, amp__bytes *o, size_t at, const uint8_t *alive)
{
    const uint32_t *w = s->w;
    uint32_t op = op_of(w, at), len = len_of(w, at), id = len > 2 ? w[at + 2] : 0;
    switch (op) {
    case SpvOpName:
    case SpvOpDecorate:
    case SpvOpDecorateId:
    case SpvOpDecorateString:
        if ((len >= 3 && w[at + 2] == SpvDecorationSpecId) || w[at + 1] >= s->bound || !alive[w[at + 1]]) return;
        break;
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse:
        put_op(o, s->value[id] ? SpvOpConstantTrue : SpvOpConstantFalse, 3, w[at + 1], id, 0);
        return;
    case SpvOpSpecConstant:
    case SpvOpSpecConstantOp:
        if (s->state[id] != CONST) break;
        if (s->kind[w[at + 1]] == K_BOOL) put_op(o, s->value[id] ? SpvOpConstantTrue : SpvOpConstantFalse, 3, w[at + 1], id, 0);
        else put_op(o, SpvOpConstant, 4, w[at + 1], id, s->value[id]);
        return;
    case SpvOpSpecConstantComposite: {
        size_t start = written(o);
        bool fixed = true; /* no member is an operation left as it is */
        for (uint32_t k = 3; k < len; k++)
            fixed = fixed && !(w[at + k] < s->bound && s->def[w[at + k]] &&
                               op_of(w, s->def[w[at + k]]) == SpvOpSpecConstantOp && s->state[w[at + k]] != CONST);
        put(o, &w[at], len);
        if (!o->failed && fixed) *word(o, start) = len << 16 | SpvOpConstantComposite;
        return;
    }
    default: break;
    }
    put(o, &w[at], len);
}

/* Declines: AMP_ERROR_UNSUPPORTED with the reason in *why (where why is not NULL), the
 * thread's last error left as it was (declining is not an error of the caller's). */
static amp_status decline(const char **why, const char *reason)
{
    if (why) *why = reason;
    return AMP_ERROR_UNSUPPORTED;
}

amp_status amp__spirv_specialize(const uint32_t *code, size_t bytes, const VkSpecializationInfo *spec,
                                 uint32_t **out, size_t *out_bytes, const char **why)
{
    *out = NULL;
    *out_bytes = 0;
    size_t n = bytes / 4, functions = 0;
    if (n < 5 || code[0] != SpvMagicNumber || code[3] == 0 || code[3] > (1u << 22))
        return decline(why, "not a SPIR-V module this can specialize");
    uint32_t bound = code[3];
    spec_state s = {.w = code, .n = n, .bound = bound};
    s.def = calloc(bound, sizeof *s.def);
    s.state = calloc(bound, 1);
    s.value = calloc(bound, 4);
    s.kind = calloc(bound, 1);
    s.reached = calloc(bound, 1);
    s.stub = calloc(bound, 1);
    s.header = calloc(bound, 4);
    s.block_of = malloc(bound * sizeof *s.block_of);
    s.uses = calloc(bound, 4);
    s.keep = calloc(n, 1);
    uint32_t *spec_id = calloc(bound, 4); /* id -> its SpecId + 1 */
    uint8_t *alive = calloc(bound, 1);    /* id -> defined by an instruction that is written */
    amp__bytes o = {0};
    amp_status st = AMP_OK;
    if (!s.def || !s.state || !s.value || !s.kind || !s.reached || !s.stub || !s.header || !s.block_of || !s.uses || !s.keep || !spec_id ||
        !alive) {
        st = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        goto done;
    }
    memset(s.block_of, 0xff, bound * sizeof *s.block_of);
    /* Definitions, types and SpecIds, and the constants' values; the results of the
     * functions' instructions start unknown, the rest varying. */
    for (size_t at = 5; at < n; at += len_of(code, at)) {
        uint32_t op = op_of(code, at), len = len_of(code, at);
        bool typed;
        if (len == 0 || at + len > n) goto malformed;
        if (op == SpvOpFunction && !functions) functions = at;
        if (has_result(op, &typed)) {
            if (len < (typed ? 3u : 2u)) goto malformed;
            uint32_t id = code[at + (typed ? 2 : 1)];
            if (id >= bound) goto malformed;
            s.def[id] = at;
            s.state[id] = functions && op != SpvOpFunction && op != SpvOpFunctionParameter ? TOP : VARYING;
        }
        if (op == SpvOpDecorate && len >= 4 && code[at + 2] == SpvDecorationSpecId && code[at + 1] < bound)
            spec_id[code[at + 1]] = code[at + 3] + 1;
        if (op == SpvOpExtInstImport) {
            if ((len - 2) * 4 >= 13 && memcmp(&code[at + 2], "GLSL.std.450", 13) == 0) {
                s.glsl_set = code[at + 1];
            } else {
                st = decline(why, "an extended instruction set other than GLSL.std.450");
                goto done;
            }
        }
        if ((op == SpvOpTypeBool || op == SpvOpTypeInt || op == SpvOpTypeFloat) && len >= 2) {
            uint32_t width = op == SpvOpTypeBool ? 32 : len >= 3 ? code[at + 2] : 0;
            s.kind[code[at + 1]] = width != 32 ? K_NONE : op == SpvOpTypeBool ? K_BOOL : op == SpvOpTypeInt ? K_INT : K_FLOAT;
        }
        if (!functions && !read_constant(&s, at, spec_id, spec)) {
            st = decline(why, "a specialization constant of other than 32 bits, or given in other than 4 bytes");
            goto done;
        }
    }
    /* Each function propagated and its instructions marked. */
    for (size_t at = functions; functions && at < n;) {
        if (op_of(code, at) != SpvOpLabel) {
            s.keep[at] = 1; /* OpFunction, its parameters, OpFunctionEnd */
            at += len_of(code, at);
            continue;
        }
        size_t end = read_blocks(&s, at);
        if (!end) {
            st = decline(why, "a function whose blocks this cannot read");
            goto done;
        }
        propagate(&s);
        find_stubs(&s);
        mark_kept(&s);
        at = end; /* its OpFunctionEnd */
    }
    for (size_t at = 5; at < n; at += len_of(code, at)) {
        bool typed;
        uint32_t op = op_of(code, at);
        if ((!functions || at < functions || s.keep[at]) && has_result(op, &typed))
            alive[code[at + (typed ? 2 : 1)]] = 1;
    }
    for (size_t at = 0; at < 5; at++) put(&o, &code[at], 1);
    for (size_t at = 5; at < (functions ? functions : n); at += len_of(code, at)) write_header(&s, &o, at, alive);
    for (size_t at = functions; functions && at < n;) {
        if (op_of(code, at) != SpvOpLabel) {
            put(&o, &code[at], len_of(code, at));
            at += len_of(code, at);
            continue;
        }
        size_t end = read_blocks(&s, at);
        find_stubs(&s);
        for (size_t i = 0; i < s.nblocks; i++) write_block(&s, &o, i);
        at = end;
    }
    if (o.failed) {
        st = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        goto done;
    }
    *out = (uint32_t *)(void *)o.data;
    *out_bytes = o.n;
    o.data = NULL;
    goto done;
malformed:
    st = decline(why, "malformed SPIR-V");
done:
    free(o.data);
    free(s.def);
    free(s.state);
    free(s.value);
    free(s.kind);
    free(s.reached);
    free(s.stub);
    free(s.header);
    free(s.block_of);
    free(s.uses);
    free(s.keep);
    free(s.blocks);
    free(spec_id);
    free(alive);
    return st;
}
