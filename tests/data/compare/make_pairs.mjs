// Makes the image pairs of tests/data/compare and pixelmatch's counts of their
// differing pixels (pixelmatch.txt), the reference test_compare checks the YIQ metric
// against. Run once; the pairs and counts are committed:
//
//     npm install --prefix DIR pixelmatch@7.2.0 pngjs@7
//     node tests/data/compare/make_pairs.mjs DIR
//
// The pictures are drawn here, deterministically: anti-aliased shapes (4 x 4 samples
// a pixel), moved by a fraction of a pixel (edges that differ by anti-aliasing only)
// and with real changes; translucent pixels (pixelmatch's checkerboard); noise around
// the thresholds; a gray file.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.resolve(process.argv[2] || '.', 'node_modules', 'x.js'));
const { PNG } = require('pngjs');
const pixelmatch = (await import(path.resolve(process.argv[2] || '.', 'node_modules/pixelmatch/index.js'))).default;
const version = require('pixelmatch/package.json').version;

// a w x h RGBA picture from cover(x, y) -> [r, g, b, a] per sample, 4 x 4 samples a pixel
function draw(w, h, cover) {
    const data = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
            const sum = [0, 0, 0, 0];
            for (let j = 0; j < 4; j++)
                for (let i = 0; i < 4; i++) {
                    const c = cover(x + (i + 0.5) / 4, y + (j + 0.5) / 4);
                    for (let k = 0; k < 4; k++) sum[k] += c[k];
                }
            for (let k = 0; k < 4; k++) data[(y * w + x) * 4 + k] = Math.round(sum[k] / 16);
        }
    return data;
}

// shapes over a gradient: a disc, a ring, thin strokes at angles, a bar; moved by dx, dy;
// a square at (sx, sy) in the colour sq
function scene(dx, dy, sq, sx = 150, sy = 20) {
    return (x, y) => {
        x -= dx;
        y -= dy;
        const d = Math.hypot(x - 60, y - 60), e = Math.hypot(x - 140, y - 100);
        if (x >= sx && x < sx + 16 && y + dy >= sy && y + dy < sy + 16) return sq;
        if (d < 35) return [220, 60, 40, 255];
        if (Math.abs(e - 25) < 2.5) return [30, 30, 160, 255];
        for (let k = 0; k < 5; k++) { // strokes 1.2 px wide, as a glyph's
            const a = 0.3 + k * 0.55, ox = 20 + k * 34, oy = 130;
            const t = (x - ox) * Math.cos(a) + (y - oy) * Math.sin(a);
            const n = -(x - ox) * Math.sin(a) + (y - oy) * Math.cos(a);
            if (t > 0 && t < 14 && Math.abs(n) < 0.6) return [10, 10, 10, 255];
        }
        if (y > 100 && y < 104 && x > 10 && x < 90) return [0, 120, 0, 255];
        return [200 + (x / 10 | 0), 210, 230 - (y / 10 | 0), 255];
    };
}

function translucent(shift) {
    return (x, y) => {
        const d = Math.hypot(x - 40 - shift, y - 30);
        const a = d < 20 ? 255 : Math.max(0, 200 - d * 3);
        return [30 + x * 2, 90, 200 - y * 2, x > 60 && y > 40 + shift * 10 ? a / 2 : a];
    };
}

// a deterministic pseudo-random number 0..1 (a 32-bit LCG)
let seed = 12345;
function rand() {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
}

function noisy(data, amount) {
    const out = Uint8Array.from(data);
    for (let i = 0; i < out.length; i++)
        if (i % 4 !== 3) out[i] = Math.max(0, Math.min(255, out[i] + Math.round((rand() - 0.5) * 2 * amount)));
    return out;
}

function write(name, w, h, data, colorType = 6) {
    const png = new PNG({ width: w, height: h, colorType, inputColorType: 6, inputHasAlpha: true });
    png.data = Buffer.from(data);
    fs.writeFileSync(path.join(dir, name), PNG.sync.write(png, { colorType, inputColorType: 6, inputHasAlpha: true }));
}

const W = 200, H = 150;
const base = draw(W, H, scene(0, 0, [250, 200, 0, 255]));
const pairs = [
    ['moved', W, H, base, draw(W, H, scene(0.35, 0.2, [250, 200, 0, 255]))],
    ['changed', W, H, base, draw(W, H, scene(0, 0, [40, 40, 40, 255], 150, 24))],
    ['translucent', 96, 72, draw(96, 72, translucent(0)), draw(96, 72, translucent(0.5))],
    ['noise', 96, 64, draw(96, 64, scene(-50, -40, [0, 0, 0, 255])), null],
    ['gray', W, H, base, draw(W, H, scene(0.5, 0, [250, 200, 0, 255])), 0],
];
pairs[3][4] = noisy(pairs[3][3], 12);

const lines = [`# pixelmatch ${version}'s count of differing pixels: pair threshold aa white count`,
               '# (aa 1: anti-aliased pixels ignored, includeAA false; white 1: checkerboard false)',
               '# made by make_pairs.mjs'];
for (const [name, w, h, a, b, colorType] of pairs) {
    write(`${name}_a.png`, w, h, a, colorType ?? 6);
    write(`${name}_b.png`, w, h, b, colorType ?? 6);
    // what pixelmatch reads: the files as pngjs decodes them
    const da = PNG.sync.read(fs.readFileSync(path.join(dir, `${name}_a.png`))).data;
    const db = PNG.sync.read(fs.readFileSync(path.join(dir, `${name}_b.png`))).data;
    for (const threshold of [0, 0.05, 0.1, 0.2, 0.5])
        for (const aa of [1, 0])
            for (const white of [0, 1]) {
                const n = pixelmatch(da, db, null, w, h, { threshold, includeAA: !aa, checkerboard: !white });
                lines.push(`${name} ${threshold} ${aa} ${white} ${n}`);
            }
}
fs.writeFileSync(path.join(dir, 'pixelmatch.txt'), lines.join('\n') + '\n');
console.log(lines.join('\n'));
