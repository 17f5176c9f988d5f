#!/usr/bin/env python3
"""Writes shaders/filter/median_net.glsl: the selection networks for the medians of a tile
of 5x5 windows (outputs side by side and one above the other) that
shaders/filter/median.comp runs: amp_median25_wide (2 x 4) on GPUs, amp_median25_narrow (1 x 2) on CPU devices
(lavapipe, where the larger tile's values no longer fit its registers: 12% slower there
though it takes fewer operations); and amp_median25_quad (4 x 2) that shaders/filter/packed.comp
runs on CPU devices, a channel at a time of the four texels of a quad in two rows. (Its 3x3 windows need no generated network: their rows
are sorted once and shared, see there.)

How (after A. Adams, "Fast median filters using separable sorting networks", 2021): the
tile is split in halves, the halves again, down to single windows. Each part of the tree
has a core, the values every window of the part holds; a part's core is its parent's
plus some values of its own. What it knows of its core is a sorted list of the ranks that
can still be a median: of a set of s values that are in every window of 25, those with 13
or more above them (rank < s - 13) are below the median of each window and those with 13
or more below them above it, so only ranks s - 13 .. 12 are kept (the lows dropped are
counted, so a kept value's rank is known). A part sorts its own new values (one group, or
column by column when there are many), merges them into its parent's list and keeps the
ranks that can matter; a single window's core is its 25 values and rank 12 is its median.
A tile of 2 x 4 windows takes 72 min/max operations a window, 1 x 2 114, one window
alone about 200. Each network (its sizes and ranks) is a function of its own, written
once and called wherever a tile needs it.

Every network is Batcher's odd-even merge sort or merge of the next power of two, the
missing inputs taken as +infinity and resolved here (a compare with +infinity is no
compare); knowing inputs sorted, each compare that can never exchange goes (and one that
always does becomes a renaming of its wires), found by running every 0-1 input that
respects the order; then it is pruned backwards from the wires it must deliver: a compare
whose outputs are not needed goes, and one of which only the smaller (larger) is needed
becomes a min (max). Each network is checked on every 0-1 input it accepts (a network
that selects rank k of every 0-1 sequence selects it of every sequence), the whole tile
on random inputs. Run it after changing it (seconds): python3 scripts/gen_median_net.py
"""
import itertools
import os
import random

SIDE = 5                  # the window
COUNT = SIDE * SIDE
MEDIAN = COUNT // 2       # its rank
# windows an invocation, by name: GPUs' (median.comp's FLAG_WIDE) and CPU devices', and
# packed.comp's (a quad's four texels, two rows a round); median.comp takes the shapes from
# the defines written here, chain.c mirrors them (MEDIAN_WIDE_W ...)
TILES = (('wide', 2, 4), ('narrow', 1, 2), ('quad', 4, 2))
GROUP = 8                 # new values up to this many are sorted as one group, else by column


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

    def pad(self, wires, size):
        return wires + [self.wire_inf() for _ in range(size - len(wires))]

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
        wires = self.pad(wires, size)

        def rec(w):
            if len(w) == 1:
                return w
            h = len(w) // 2
            return self.merge(rec(w[:h]), rec(w[h:]))
        return rec(wires)


def pruned_merge(la, lb, first, last, b_sorted):
    """The network that merges wires 0..la-1 (ascending) with wires la..la+lb-1 (ascending
    if b_sorted, else sorted here first) and delivers the merged ranks first..last.
    Returns its ops on the input wires (('cmp', i, j): min to i, max to j; ('min', i, j):
    min to i; ('max', i, j): max to j) and the wires holding those ranks."""
    n = la + lb
    net = Net(n)
    a, b = list(range(la)), list(range(la, n))
    if not b_sorted:
        b = net.sort(b)
    if la:
        size = 1
        while size < max(la, len(b)):
            size *= 2
        b = net.merge(net.pad(a, size), net.pad(b, size))
    # the 0-1 inputs that respect the order: a's zeros first, then b's
    if b_sorted:
        cases = [(za, zb) for za in range(la + 1) for zb in range(lb + 1)]
    else:
        cases = [(za,) + bits for za in range(la + 1) for bits in itertools.product((0, 1), repeat=lb)]

    def zeros(case):
        return case[0] + (case[1] if b_sorted else lb - sum(case[1:]))
    width = len(net.real)
    val = [0] * width  # a wire's mask: a 1 for each case in which it holds 1
    for c, case in enumerate(cases):
        for k in range(la):
            val[k] |= (k >= case[0]) << c
        for k in range(lb):
            val[la + k] |= (k >= case[1] if b_sorted else case[1 + k]) << c
    for w in range(n, width):
        val[w] = (1 << len(cases)) - 1  # +infinity
    inputs = val[:n]
    where = list(range(width))  # the wire of the network -> the wire its value is on
    ops = []
    for kind, i, j in net.ops:
        x, y = where[i], where[j]
        if kind == 'move' or val[y] & ~val[x] == 0:  # always exchanges: rename
            where[i], where[j] = y, x
        elif val[x] & ~val[y] != 0:  # may exchange
            ops.append(('cmp', x, y))
            val[x], val[y] = val[x] & val[y], val[x] | val[y]
    ranks = range(first, last + 1)
    outs = [where[b[r]] for r in ranks]
    need, kept = set(outs), []
    for kind, i, j in reversed(ops):
        lo, hi = i in need, j in need
        if lo or hi:
            kept.append(('cmp' if lo and hi else 'min' if lo else 'max', i, j))
            need.update((i, j))
    kept.reverse()
    assert max([max(i, j) for _, i, j in kept] + [0]) < n
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
        assert w[o] == sum(1 << c for c, case in enumerate(cases) if zeros(case) <= r), (la, lb, r)
    return kept, outs


def useful(size):
    """The ranks of a set of size values, in every window, that can be a window's median."""
    return max(0, size - (COUNT - MEDIAN)), min(size - 1, MEDIAN)


def window(o):
    return {(o[0] + dx, o[1] + dy) for dx in range(SIDE) for dy in range(SIDE)}


class Tile:
    """The program of a tile's medians: calls of networks (each made once for its sizes and
    ranks, shared by every tile: NETS) on arrays of values. 'k[i]' are the inputs, 'a<c>'
    the array of call c, whose wires the network orders in place."""

    def __init__(self, name, tw, th):
        self.name, self.tw, self.th, self.calls, self.results = name, tw, th, [], {}
        self.load_w = tw + SIDE - 1
        outs = [(x, y) for y in range(th) for x in range(tw)]
        self.part(outs, [], 0, set())

    def input(self, e):
        return 'k[%d]' % (e[0] + e[1] * self.load_w)

    def run(self, la, lb, first, last, b_sorted, values):
        key = (la, lb, first, last, b_sorted)
        if key not in NETS:
            NETS[key] = (len(NETS),) + pruned_merge(*key)
        net, _, outs = NETS[key]
        self.calls.append((net, list(values)))
        return ['a%d[%d]' % (len(self.calls) - 1, o) for o in outs]

    def operations(self):
        by_id = {n: ops for n, ops, _ in NETS.values()}
        return sum(sum(2 if k == 'cmp' else 1 for k, _, _ in by_id[n]) for n, _ in self.calls)

    def part(self, outs, kept, low, parent):
        """Medians of the windows outs, given their parent's core: its kept sorted ranks
        (kept) and how many below them were dropped (low)."""
        core = set.intersection(*[window(o) for o in outs])
        new = sorted(core - parent)
        groups = {}
        for e in new:
            groups.setdefault(e[0] if len(new) > GROUP else 0, []).append(e)
        size = len(parent)
        for g in groups.values():
            first, last = useful(len(g))
            sorted_g = self.run(0, len(g), first, last, False, [self.input(e) for e in g])
            if not kept and size == 0:
                kept, low, size = sorted_g, first, len(g)
                continue
            size += len(g)
            lo, hi = useful(size)
            # a kept value's rank is the dropped lows of both lists plus its place
            kept = self.run(len(kept), len(sorted_g), lo - low - first, hi - low - first, True, kept + sorted_g)
            low = lo
        if len(outs) == 1:
            assert len(kept) == 1 and low == MEDIAN
            self.results[outs[0]] = kept[0]
            return
        xs, ys = sorted({o[0] for o in outs}), sorted({o[1] for o in outs})
        if len(ys) >= len(xs):
            cut = ys[len(ys) // 2]
            halves = [o for o in outs if o[1] < cut], [o for o in outs if o[1] >= cut]
        else:
            cut = xs[len(xs) // 2]
            halves = [o for o in outs if o[0] < cut], [o for o in outs if o[0] >= cut]
        for h in halves:
            self.part(h, kept, low, core)

    def check(self, trials):
        by_id = {n: ops for n, ops, _ in NETS.values()}
        rng = random.Random(3)
        for _ in range(trials):
            val = {self.input((x, y)): rng.randrange(6)
                   for x in range(self.load_w) for y in range(self.th + SIDE - 1)}
            for c, (net, args) in enumerate(self.calls):
                w = run_all(by_id[net], [val[a] for a in args])
                for o, v in enumerate(w):
                    val['a%d[%d]' % (c, o)] = v
            for o, name in self.results.items():
                assert val[name] == sorted(val[self.input(e)] for e in window(o))[MEDIAN], o

    def glsl(self):
        loads = self.load_w * (self.th + SIDE - 1)
        n, name = self.operations(), self.name.upper()
        lines = [f'// amp_median25_{self.name}(k, m): the medians of the {self.tw} x {self.th} 5x5 windows in k, the',
                 f'// {self.load_w} x {self.th + SIDE - 1} values around them (row by row), into m (window (x, y) at',
                 f'// m[x + y * {self.tw}]); {n} min/max operations, {n / len(self.results):.2f} a window.',
                 f'#define AMP_MEDIAN_{name}_W {self.tw}',
                 f'#define AMP_MEDIAN_{name}_H {self.th}',
                 f'void amp_median25_{self.name}(T k[{loads}], out T m[{len(self.results)}])', '{']
        for c, (net, args) in enumerate(self.calls):
            at = f'    T a{c}[{len(args)}] = T[]('
            for k in range(0, len(args), 8):  # lines of 8 values
                end = ');' if k + 8 >= len(args) else ','
                lines.append((at if k == 0 else ' ' * len(at)) + ', '.join(args[k:k + 8]) + end)
            lines.append(f'    amp_mnet{net}(a{c});')
        lines += [f'    m[{x + y * self.tw}] = {name};' for (x, y), name in sorted(self.results.items())]
        lines.append('}')
        return lines


NETS = {}  # (sizes, ranks, sorted) -> (id, ops, outs): the networks every tile calls


def run_all(ops, values):
    w = list(values)
    for kind, i, j in ops:
        lo, hi = min(w[i], w[j]), max(w[i], w[j])
        if kind != 'max':
            w[i] = lo
        if kind != 'min':
            w[j] = hi
    return w


def nets_glsl():
    """Each network as a function ordering its wires in place."""
    lines = []
    for (la, lb, first, last, b_sorted), (net, ops, outs) in sorted(NETS.items(), key=lambda kv: kv[1][0]):
        what = f'{la} sorted and {lb} {"sorted" if b_sorted else "unsorted"}' if la else f'{lb} unsorted'
        lines += [f'/* amp_mnet{net}: {what} values to their ranks {first}..{last} on wires {outs} */',
                  f'void amp_mnet{net}(inout T w[{la + lb}])', '{']
        for kind, i, j in ops:
            if kind == 'min':
                lines.append(f'    w[{i}] = min(w[{i}], w[{j}]);')
            elif kind == 'max':
                lines.append(f'    w[{j}] = max(w[{i}], w[{j}]);')
            else:
                lines.append(f'    {{ T t = w[{i}]; w[{i}] = min(t, w[{j}]); w[{j}] = max(t, w[{j}]); }}')
        lines.append('}')
    return lines


def main():
    tiles = [Tile(name, tw, th) for name, tw, th in TILES]
    head = ['// Generated by scripts/gen_median_net.py (read there how): do not edit.',
            '// Selection networks for the medians of tiles of overlapping 5x5 windows,',
            '// componentwise on uvec4 (keys of any order) and on vec4 (values without NaN or -0);',
            '// AMP_MEDIAN25(T) defines them for another type T: the tiles amp_median25_<name> and',
            '// the networks amp_mnet<i> they share; AMP_MEDIAN_<NAME>_W and _H are the tiles\' shapes.']
    body = nets_glsl()
    for tile in tiles:
        tile.check(20000)
        n = tile.operations()
        print(f'medians of {tile.tw} x {tile.th} 5x5 windows: {n} min/max operations, '
              f'{n / (tile.tw * tile.th):.2f} a window')
        text = tile.glsl()
        head += text[:5]
        body += text[5:]
    width = max(len(l) for l in body)
    macro = ['#define AMP_MEDIAN25(T)'.ljust(width) + ' \\'] + [l.ljust(width) + ' \\' for l in body[:-1]] + [body[-1]]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'shaders', 'filter', 'median_net.glsl')
    with open(path, 'w') as f:
        f.write('\n'.join(head + macro) + '\nAMP_MEDIAN25(uvec4)\nAMP_MEDIAN25(vec4)\n')


if __name__ == '__main__':
    main()
