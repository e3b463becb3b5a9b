// Draws the four home-page screenshots (web/public/screenshots/*.svg) from deterministic sample
// data with d3 scales and shapes, so they show the real features and stay small and crisp.
// Run: node web/scripts/draw-screenshots.mjs
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { area, curveMonotoneX, line, scaleBand, scaleLinear } from 'd3';

const W = 1200;
const H = 720;
const out = (name) => fileURLToPath(new URL(`../public/screenshots/${name}`, import.meta.url));
const C = {
  bg: '#f6f7f9',
  surface: '#fff',
  border: '#e2e5ea',
  text: '#151b23',
  muted: '#5b6573',
  accent: '#2563eb',
  accentSoft: '#dbe6fd',
  teal: '#14b8a6',
  amber: '#f59e0b',
  red: '#dc2626',
  green: '#16a34a',
};
const FONT = 'font-family="system-ui, -apple-system, \'Segoe UI\', Roboto, Arial, sans-serif"';
const MONO = 'font-family="ui-monospace, Menlo, Consolas, monospace"';

// Deterministic pseudo-random numbers: the pictures never change between runs.
let seed = 7;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
const text = (
  x,
  y,
  s,
  { size = 13, fill = C.text, weight = 400, anchor = 'start', mono = false } = {},
) =>
  `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" font-weight="${weight}" text-anchor="${anchor}" ${mono ? MONO : ''}>${esc(s)}</text>`;
const rect = (x, y, w, h, fill, extra = '') =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}" ${extra}/>`;

/** The app frame: header, side menu with the active page, title. */
function frame(active, title, body) {
  const menu = ['Dashboard', 'Compare Builds', 'Symbol Analysis', 'Region Config', 'Settings'];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" ${FONT}>
${rect(0, 0, W, H, C.bg)}
${rect(0, 0, W, 52, C.surface)}${rect(0, 52, W, 1, C.border)}
<rect x="20" y="15" width="22" height="22" rx="5" fill="${C.accent}"/>
<rect x="25" y="20" width="12" height="3" rx="1.5" fill="#fff"/><rect x="25" y="25" width="9" height="3" rx="1.5" fill="#fff"/><rect x="25" y="30" width="5" height="3" rx="1.5" fill="#fcd34d"/>
${text(52, 32, 'Memtrail', { size: 16, weight: 800 })}
${text(150, 32, 'Tutorial', { fill: C.muted })}${text(220, 32, 'Pricing', { fill: C.muted })}
${text(W - 20, 32, 'dev@acme-robotics.com', { fill: C.muted, anchor: 'end' })}
${rect(0, 53, 200, H - 53, C.surface)}${rect(200, 53, 1, H - 53, C.border)}
${text(20, 86, 'Projects', { weight: 500 })}
${rect(16, 102, 168, 1, C.border)}
${text(20, 126, 'PROJECT', { size: 10, fill: C.muted, weight: 700 })}
${text(20, 144, 'motor-controller', { weight: 600 })}
${text(20, 166, 'TARGET', { size: 10, fill: C.muted, weight: 700 })}
${text(20, 184, 'stm32f407', { weight: 600, mono: true })}
${menu
  .map((item, i) => {
    const y = 206 + i * 34;
    const on = item === active;
    return `${on ? `<rect x="12" y="${y}" width="176" height="28" rx="6" fill="${C.accentSoft}"/>` : ''}${text(24, y + 19, item, { fill: on ? C.accent : C.text, weight: 500 })}`;
  })
  .join('')}
${text(228, 96, title, { size: 22, weight: 700 })}
${body}
</svg>`;
}

const card = (x, y, w, h) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="${C.surface}" stroke="${C.border}"/>`;

function timeSeries() {
  const n = 120;
  let flash = 301_000;
  let ram = 84_000;
  const data = Array.from({ length: n }, (_, i) => {
    flash += (rand() - 0.35) * 900 + (i === 71 ? 14_000 : 0);
    ram += (rand() - 0.4) * 300 + (i === 71 ? 5_200 : 0);
    return { i, flash, ram };
  });
  const x = scaleLinear()
    .domain([0, n - 1])
    .range([260, 1150]);
  const yF = scaleLinear().domain([280_000, 400_000]).range([420, 150]);
  const yR = scaleLinear().domain([70_000, 110_000]).range([640, 500]);
  const flashArea = area()
    .x((d) => x(d.i))
    .y0(420)
    .y1((d) => yF(d.flash))
    .curve(curveMonotoneX)(data);
  const flashLine = line()
    .x((d) => x(d.i))
    .y((d) => yF(d.flash))
    .curve(curveMonotoneX)(data);
  const ramLine = line()
    .x((d) => x(d.i))
    .y((d) => yR(d.ram))
    .curve(curveMonotoneX)(data);
  const grid = yF
    .ticks(4)
    .map(
      (t) =>
        `${rect(260, yF(t), 890, 1, C.border)}${text(252, yF(t) + 4, `${Math.round(t / 1024)} KB`, { size: 11, fill: C.muted, anchor: 'end' })}`,
    )
    .join('');
  const gridR = yR
    .ticks(3)
    .map(
      (t) =>
        `${rect(260, yR(t), 890, 1, C.border)}${text(252, yR(t) + 4, `${Math.round(t / 1024)} KB`, { size: 11, fill: C.muted, anchor: 'end' })}`,
    )
    .join('');
  const jump = data[71];
  const body = `
${card(228, 116, 944, 330)}${text(248, 142, 'FLASH · 512 KB', { weight: 600 })}${text(1152, 142, '74.1% used', { anchor: 'end', fill: C.muted })}
${grid}
<path d="${flashArea}" fill="${C.accent}" fill-opacity="0.12"/><path d="${flashLine}" fill="none" stroke="${C.accent}" stroke-width="2.5"/>
<circle cx="${x(jump.i)}" cy="${yF(jump.flash)}" r="6" fill="${C.surface}" stroke="${C.red}" stroke-width="3"/>
<rect x="${x(jump.i) - 150}" y="${yF(jump.flash) - 62}" width="230" height="44" rx="6" fill="#0f172a"/>
${text(x(jump.i) - 138, yF(jump.flash) - 43, '3f9a2c1 · Add CAN bootloader', { size: 12, fill: '#fff', weight: 600 })}
${text(x(jump.i) - 138, yF(jump.flash) - 26, '+14.2 KB FLASH   +5.1 KB RAM', { size: 12, fill: '#fca5a5', mono: true })}
${card(228, 462, 944, 200)}${text(248, 488, 'RAM · 128 KB', { weight: 600 })}${text(1152, 488, '71.9% used', { anchor: 'end', fill: C.muted })}
${gridR}<path d="${ramLine}" fill="none" stroke="${C.teal}" stroke-width="2.5"/>
${text(260, 690, '120 commits on main', { size: 11, fill: C.muted })}`;
  return frame('Dashboard', 'Time Series Analysis', body);
}

function commitHistory() {
  const rows = [
    ['a1c9e07', 'Trim log strings in release builds', 'M. Keller', -2.4, -0.1],
    ['77d02b3', 'Enable LTO for the motor task', 'J. Ortega', -6.8, 0],
    ['3f9a2c1', 'Add CAN bootloader', 'S. Nakamura', 14.2, 5.1],
    ['c4e810a', 'Bump FreeRTOS to 11.1', 'M. Keller', 1.1, 0.4],
    ['9b5f3d2', 'Move lookup tables to flash', 'A. Weiss', 0.8, -3.2],
    ['e02c7f9', 'Fix ADC DMA double buffer', 'J. Ortega', 0.2, 1.0],
    ['58aa1e4', 'Add field-oriented control', 'S. Nakamura', 9.6, 1.8],
    ['1d7c6b0', 'Refactor UART driver', 'A. Weiss', -0.6, 0],
    ['b83e2a5', 'Add watchdog', 'M. Keller', 0.4, 0.1],
  ];
  const delta = (v) => (v === 0 ? '0' : `${v > 0 ? '+' : '−'}${Math.abs(v).toFixed(1)} KB`);
  const tone = (v) => (v > 0.5 ? C.red : v < -0.5 ? C.green : C.muted);
  const body = `
${card(228, 116, 944, 560)}
${rect(229, 117, 942, 40, '#f0f3f7', 'rx="10"')}
${text(250, 142, 'COMMIT', { size: 11, fill: C.muted, weight: 700 })}${text(350, 142, 'MESSAGE', { size: 11, fill: C.muted, weight: 700 })}
${text(760, 142, 'AUTHOR', { size: 11, fill: C.muted, weight: 700 })}${text(1010, 142, 'FLASH', { size: 11, fill: C.muted, weight: 700, anchor: 'end' })}${text(1140, 142, 'RAM', { size: 11, fill: C.muted, weight: 700, anchor: 'end' })}
${rows
  .map(([sha, msg, author, f, r], i) => {
    const y = 157 + i * 57;
    const hot = sha === '3f9a2c1';
    return `${hot ? rect(229, y, 942, 57, '#fef2f2') : ''}${rect(229, y + 56, 942, 1, C.border)}
${text(250, y + 33, sha, { mono: true, fill: C.accent })}${text(350, y + 33, msg, { weight: 500 })}
${text(760, y + 33, author, { fill: C.muted })}
${text(1010, y + 33, delta(f), { mono: true, fill: tone(f), weight: 600, anchor: 'end' })}${text(1140, y + 33, delta(r), { mono: true, fill: tone(r), weight: 600, anchor: 'end' })}`;
  })
  .join('')}`;
  return frame('Dashboard', 'Commit History', body);
}

function buildComparison() {
  const sections = [
    ['.text', 231_400, 244_100],
    ['.rodata', 41_200, 42_050],
    ['.data', 3_900, 4_010],
    ['.bss', 61_300, 66_420],
  ];
  const symbols = [
    ['can_boot_main', '.text', 0, 6_212],
    ['can_rx_fifo', '.bss', 0, 4_096],
    ['flash_write_page', '.text', 1_024, 2_940],
    ['crc32_table', '.rodata', 0, 1_024],
    ['uart_tx_buffer', '.bss', 2_048, 1_024],
    ['log_format', '.text', 1_812, 1_200],
  ];
  const x = scaleLinear().domain([0, 250_000]).range([0, 330]);
  const body = `
${text(228, 124, 'main @ 77d02b3  →  feature/can-boot @ 3f9a2c1', { mono: true, fill: C.muted })}
${card(228, 140, 440, 300)}${text(248, 168, 'Sections', { weight: 600 })}
${sections
  .map(([name, a, b], i) => {
    const y = 196 + i * 60;
    const d = b - a;
    return `${text(248, y + 12, name, { mono: true })}${text(648, y + 12, `+${(d / 1024).toFixed(1)} KB`, { mono: true, fill: C.red, anchor: 'end', weight: 600 })}
<rect x="248" y="${y + 22}" width="${x(a)}" height="10" rx="3" fill="#cbd5e1"/>
<rect x="248" y="${y + 34}" width="${x(b)}" height="10" rx="3" fill="${C.accent}"/>`;
  })
  .join('')}
${card(688, 140, 484, 536)}${text(708, 168, 'Changed symbols', { weight: 600 })}${text(1152, 168, '38 changed', { fill: C.muted, anchor: 'end' })}
${symbols
  .map(([name, sec, a, b], i) => {
    const y = 190 + i * 76;
    const d = b - a;
    const tag = a === 0 ? 'added' : d > 0 ? 'grew' : 'shrank';
    const col = d > 0 ? C.red : C.green;
    return `${rect(689, y + 75, 482, 1, C.border)}${text(708, y + 30, name, { mono: true, weight: 600 })}
${text(708, y + 52, `${sec} · ${a} → ${b} B`, { size: 12, fill: C.muted, mono: true })}
<rect x="${1064}" y="${y + 16}" width="88" height="22" rx="11" fill="${d > 0 ? '#fee2e2' : '#dcfce7'}"/>${text(1108, y + 31, tag, { size: 12, fill: col, anchor: 'middle', weight: 600 })}
${text(1152, y + 56, `${d > 0 ? '+' : '−'}${Math.abs(d)} B`, { mono: true, fill: col, anchor: 'end', weight: 600 })}`;
  })
  .join('')}
${card(228, 456, 440, 220)}${text(248, 484, 'Totals', { weight: 600 })}
${text(248, 524, 'FLASH', { fill: C.muted })}${text(648, 524, '+14.2 KB (+4.6%)', { mono: true, fill: C.red, anchor: 'end', weight: 700 })}
${text(248, 564, 'RAM', { fill: C.muted })}${text(648, 564, '+5.1 KB (+5.9%)', { mono: true, fill: C.red, anchor: 'end', weight: 700 })}
${rect(248, 590, 400, 1, C.border)}
${text(248, 626, 'Budget', { fill: C.muted })}${text(648, 626, 'RAM 71.9% of 80% limit', { fill: C.amber, anchor: 'end', weight: 600 })}`;
  return frame('Compare Builds', 'Build Comparison', body);
}

function symbolAnalysis() {
  const names = [
    ['motor_foc_step', '.text', 8_412],
    ['can_boot_main', '.text', 6_212],
    ['rx_dma_buffer', '.bss', 4_096],
    ['can_rx_fifo', '.bss', 4_096],
    ['sine_table', '.rodata', 2_048],
    ['__aeabi_ddiv', '.text', 1_760],
    ['usb_cdc_desc', '.rodata', 1_312],
    ['vTaskSwitchContext', '.text', 1_204],
    ['pid_tune', '.data', 980],
    ['adc_samples', '.bss', 960],
    ['printf_core', '.text', 912],
  ];
  const y = scaleBand()
    .domain(names.map((d) => d[0]))
    .range([190, 650])
    .padding(0.25);
  const x = scaleLinear().domain([0, 9_000]).range([0, 420]);
  const color = { '.text': C.accent, '.rodata': '#60a5fa', '.data': C.teal, '.bss': C.amber };
  const history = Array.from({ length: 40 }, (_, i) => ({
    i,
    v: i < 14 ? 5_100 : i < 27 ? 6_900 : 8_412,
  }));
  const hx = scaleLinear().domain([0, 39]).range([800, 1140]);
  const hy = scaleLinear().domain([4_000, 9_000]).range([420, 230]);
  const step = line()
    .x((d) => hx(d.i))
    .y((d) => hy(d.v))(history);
  const body = `
${card(228, 116, 540, 560)}
<rect x="248" y="134" width="360" height="34" rx="8" fill="${C.bg}" stroke="${C.border}"/>${text(262, 156, 'Search symbols…', { fill: C.muted })}
${Object.entries(color)
  .map(
    ([s, c], i) =>
      `<circle cx="${630 + (i % 2) * 64}" cy="${140 + Math.floor(i / 2) * 18}" r="4" fill="${c}"/>${text(638 + (i % 2) * 64, 144 + Math.floor(i / 2) * 18, s, { size: 11, mono: true, fill: C.muted })}`,
  )
  .join('')}
${names
  .map(([name, sec, size]) => {
    const yy = y(name);
    const h = y.bandwidth();
    return `${text(248, yy + h / 2 + 4, name, { size: 12, mono: true })}
<rect x="420" y="${yy}" width="${x(size) * 0.7}" height="${h}" rx="3" fill="${color[sec]}" ${name === 'motor_foc_step' ? `stroke="#0f172a" stroke-width="2"` : ''}/>
${text(420 + x(size) * 0.7 + 6, yy + h / 2 + 4, `${size.toLocaleString('en-US')} B`, { size: 11, fill: C.muted, mono: true })}`;
  })
  .join('')}
${card(784, 116, 388, 360)}${text(804, 144, 'motor_foc_step', { weight: 700, mono: true })}
${text(804, 166, '.text · src/control/foc.c:142', { size: 12, fill: C.muted, mono: true })}
${hy
  .ticks(3)
  .map((t) => rect(800, hy(t), 340, 1, C.border))
  .join('')}
<path d="${step}" fill="none" stroke="${C.accent}" stroke-width="2.5"/>
${text(804, 455, 'Size over the last 40 commits', { size: 12, fill: C.muted })}
${card(784, 492, 388, 184)}${text(804, 520, 'Where it grew', { weight: 600 })}
${text(804, 556, '58aa1e4', { mono: true, fill: C.accent })}${text(1152, 556, '+1,800 B', { mono: true, fill: C.red, anchor: 'end', weight: 600 })}
${text(804, 590, '3f9a2c1', { mono: true, fill: C.accent })}${text(1152, 590, '+1,512 B', { mono: true, fill: C.red, anchor: 'end', weight: 600 })}
${text(804, 624, 'c4e810a', { mono: true, fill: C.accent })}${text(1152, 624, '+0 B', { mono: true, fill: C.muted, anchor: 'end' })}`;
  return frame('Symbol Analysis', 'Symbol Analysis', body);
}

writeFileSync(out('time-series.svg'), timeSeries());
writeFileSync(out('commit-history.svg'), commitHistory());
writeFileSync(out('build-comparison.svg'), buildComparison());
writeFileSync(out('symbol-analysis.svg'), symbolAnalysis());
