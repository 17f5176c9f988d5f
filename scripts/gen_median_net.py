#!/usr/bin/env python3
"""Writes shaders/filter/median_net.glsl: amp_median25x2, the selection network for the
medians of two vertically adjacent 5x5 windows (rows 0-4 and 1-5 of 30 values) that
shaders/filter/median.comp runs. (Its 3x3 windows need no generated network: their rows
are sorted once and shared, see there.)

The 20 values the windows share give their ranks 7..12 in order (the others cannot be
either median: each has 13 of the 25 on one side), and each median is then the median of
those 6 and the window's own 5 values: a network of 11 inputs whose first 6 are known
sorted. Each network is Batcher's odd-even merge sort of the next power of two, the
missing inputs taken as +infinity and resolved here (a compare with +infinity is no
compare); knowing inputs sorted, each compare that can never exchange goes (and one that
always does becomes a renaming of its wires), found by running every 0-1 input that
respects the order; then it is pruned backwards from the wires it must deliver: a compare
whose outputs are not needed goes, and one of which only the smaller (larger) is needed
becomes a min (max). Each network is checked on every 0-1 input it accepts (a network
that selects rank k of every 0-1 sequence selects it of every sequence), the whole on
random inputs. Run it after changing it (about 3 minutes):
python3 scripts/gen_median_net.py
"""
import itertools
import os
import random


class Net:
    def __init__(self, n):
        self.real = [True] * n  # False: +infinity
        self.ops = []           # ('cmp', i, j): min to i, max to j; ('move', i, j): j's value to i

    def wire_inf(self):
        self.real.append(False)
        return len(self.real) - 1

    def cmp(self, i, j):
        if self.real[i] and self.real[j]:
            self.ops.append(('cmp', i, j))
        elif not self.real[i] and self.real[j]:
            self.ops.append(('move', i, j))
            self.real[i], self.real[j] = True, False

    def merge(self, a, b):
        """Batcher's odd-even merge of the sorted wire lists a and b (same power-of-2 length)."""
        w = a + b

        def rec(lo, n, r):
            step = r * 2
            if step < n:
                rec(lo, n, step)
                rec(lo + r, n, step)
                for i in range(lo + r, lo + n - r, step):
                    self.cmp(w[i], w[i + r])
            else:
                self.cmp(w[lo], w[lo + r])
        rec(0, len(w), 1)
        return w

    def sort(self, wires):
        size = 1
        while size < len(wires):
            size *= 2
        wires = wires + [self.wire_inf() for _ in range(size - len(wires))]

        def rec(w):
            if len(w) == 1:
                return w
            h = len(w) // 2
            return self.merge(rec(w[:h]), rec(w[h:]))
        return rec(wires)


def pruned_ops(n, ranks, sorted_groups=()):
    """Batcher's sort of n values pruned to the wires of the given ranks (in order), where
    each list of sorted_groups names inputs known to be ascending. Compares decided by that
    knowledge go (found on every 0-1 input it allows, as bit masks: a wire's mask has a 1 for
    each input on which the wire holds 1), and the result is checked on all of them.
    Returns the ops on the input wires (values stay on their wires: no scratch) and the
    wires holding the ranks."""
    net = Net(n)
    sorted_wires = net.sort(list(range(n)))
    width = len(net.real)
    grouped = {w for g in sorted_groups for w in g}
    free = [w for w in range(n) if w not in grouped]
    cases = list(itertools.product(*([range(len(g) + 1) for g in sorted_groups] + [range(2)] * len(free))))
    val = [0] * width
    for c, zeros in enumerate(cases):
        for g, z in zip(sorted_groups, zeros):
            for k, w in enumerate(g):
                if k >= z:
                    val[w] |= 1 << c
        for w, bit in zip(free, zeros[len(sorted_groups):]):
            if bit:
                val[w] |= 1 << c
    for w in range(n, width):
        val[w] = (1 << len(cases)) - 1  # +infinity
    inputs = val[:n]
    where = list(range(width))  # the wire of the network -> the wire its value is on
    ops = []
    for kind, i, j in net.ops:
        a, b = where[i], where[j]
        if kind == 'move' or val[b] & ~val[a] == 0:  # always exchanges: rename
            where[i], where[j] = b, a
        elif val[a] & ~val[b] != 0:  # may exchange
            ops.append(('cmp', a, b))
            val[a], val[b] = val[a] & val[b], val[a] | val[b]
    outs = [where[sorted_wires[r]] for r in ranks]
    need, kept = set(outs), []
    for kind, i, j in reversed(ops):
        lo, hi = i in need, j in need
        if lo or hi:
            kept.append(('cmp' if lo and hi else 'min' if lo else 'max', i, j))
            need.update((i, j))
    kept.reverse()
    assert max(max(i, j) for _, i, j in kept) < n
    # the check: the pruned network on every allowed 0-1 input; rank r holds 1 where at
    # most r inputs are 0
    w = list(inputs)
    for kind, i, j in kept:
        lo, hi = w[i] & w[j], w[i] | w[j]
        if kind != 'max':
            w[i] = lo
        if kind != 'min':
            w[j] = hi
    for r, o in zip(ranks, outs):
        want = sum(1 << c for c, zeros in enumerate(cases)
                   if sum(zeros[:len(sorted_groups)]) + sum(1 - b for b in zeros[len(sorted_groups):]) <= r)
        assert w[o] == want, (n, r)
    return kept, outs


def run_all(ops, values):
    w = list(values)
    for kind, i, j in ops:
        if kind == 'min':
            w[i] = min(w[i], w[j])
        elif kind == 'max':
            w[j] = max(w[i], w[j])
        else:
            w[i], w[j] = min(w[i], w[j]), max(w[i], w[j])
    return w


def median25x2():
    """amp_median25x2's parts: the shared network (ranks 7..12 of 20) and the final one
    (the median of 11 whose first 6 are sorted)."""
    shared, shared_outs = pruned_ops(20, range(7, 13))
    final, final_out = pruned_ops(11, [5], [list(range(6))])
    rng = random.Random(3)
    for _ in range(20000):
        v = [rng.randrange(6) for _ in range(30)]
        w = run_all(shared, v[5:25])
        mid = [w[o] for o in shared_outs]
        for own, rows in ((v[0:5], v[0:25]), (v[25:30], v[5:30])):
            got = run_all(final, mid + own)[final_out[0]]
            assert got == sorted(rows)[12], v
    return shared, shared_outs, final, final_out[0]


def count_ops(ops):
    return sum(2 if k == 'cmp' else 1 for k, _, _ in ops if k != 'move')


def glsl_ops(ops, name, offset=0):
    out = []
    for kind, i, j in ops:
        i, j = i + offset, j + offset
        if kind == 'min':
            out.append(f'    {name}[{i}] = min({name}[{i}], {name}[{j}]);')
        elif kind == 'max':
            out.append(f'    {name}[{j}] = max({name}[{i}], {name}[{j}]);')
        else:
            out.append(f'    {{ T t = {name}[{i}]; {name}[{i}] = min(t, {name}[{j}]); {name}[{j}] = max(t, {name}[{j}]); }}')
    return out


def glsl25x2(shared, shared_outs, final, final_out):
    """The networks as a macro that defines them for a vector type T: amp_median11_6 (the
    final one, run for each window) and amp_median25x2."""
    count = count_ops(shared) + 2 * count_ops(final)
    lines = [f'// amp_median25x2(k, m0, m1): the medians of k[0..24] (m0) and k[5..29] (m1), {count}',
             f'// min/max operations ({count_ops(shared)} shared, {count_ops(final)} each); amp_median11_6(s):',
             '// the median of s[0..10] whose first 6 are ascending.',
             '#define AMP_MEDIAN25X2(T)', 'T amp_median11_6(T s[11])', '{']
    lines += glsl_ops(final, 's')
    lines += [f'    return s[{final_out}];', '}',
              'void amp_median25x2(T k[30], out T m0, out T m1)', '{']
    lines += glsl_ops(shared, 'k', 5)
    lines.append('    T s[11];')
    for lo, name in ((0, 'm0'), (25, 'm1')):
        for a, o in enumerate(shared_outs):
            lines.append(f'    s[{a}] = k[{o + 5}];')
        for a in range(5):
            lines.append(f'    s[{6 + a}] = k[{lo + a}];')
        lines.append(f'    {name} = amp_median11_6(s);')
    lines.append('}')
    width = max(len(l) for l in lines[3:])
    body = [l.ljust(width) + ' \\' for l in lines[3:-1]] + [lines[-1]]
    return '\n'.join(lines[:3] + body), count


def main():
    text, count = glsl25x2(*median25x2())
    print(f'medians of two 5x5 windows: {count} min/max operations')
    head = ('// Generated by scripts/gen_median_net.py (read there how): do not edit.\n'
            '// A selection network for the medians of two overlapping 5x5 windows, componentwise\n'
            '// on uvec4 (keys of any order) and on vec4 (values without NaN or -0).\n\n')
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'shaders', 'filter', 'median_net.glsl')
    with open(path, 'w') as f:
        f.write(head + text + '\nAMP_MEDIAN25X2(uvec4)\nAMP_MEDIAN25X2(vec4)\n')


if __name__ == '__main__':
    main()
