// The end-of-test summary of every script: a short text for people (stdout) and the whole of k6's summary data as
// JSON for programs (bench/ reads it instead of scraping text), written to $SUMMARY_DIR/<script>-summary.json
// (SUMMARY_DIR defaults to the current directory; SUMMARY_DIR=none writes no file).

const TREND_STATS = ['avg', 'med', 'p(95)', 'p(99)', 'max'];

function number(value, digits = 2) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '-';
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

function thresholdMarks(metric) {
  const marks = [];
  for (const [expression, result] of Object.entries(metric.thresholds || {})) {
    marks.push(`${result.ok ? 'ok' : 'CROSSED'} ${expression}`);
  }
  return marks.length ? `  [${marks.join('; ')}]` : '';
}

/** The text part: one line per metric, trends as avg/med/p95/p99/max in ms, then the thresholds' verdict. */
export function textSummary(data, script) {
  const lines = [`${script}: summary`];
  const metrics = data.metrics || {};
  let crossed = 0;
  for (const name of Object.keys(metrics).sort()) {
    const metric = metrics[name];
    const values = metric.values || {};
    let text;
    if (metric.type === 'trend') {
      text = TREND_STATS.map((stat) => `${stat}=${number(values[stat])}`).join(' ');
    } else if (metric.type === 'rate') {
      text = `${number(100 * (values.rate || 0))}% (${values.passes || 0} of ${(values.passes || 0) + (values.fails || 0)})`;
    } else if (metric.type === 'counter') {
      text = `${number(values.count, 0)} (${number(values.rate)}/s)`;
    } else {
      text = `${number(values.value)} (min ${number(values.min)}, max ${number(values.max)})`;
    }
    for (const result of Object.values(metric.thresholds || {})) {
      if (!result.ok) crossed += 1;
    }
    lines.push(`  ${name}: ${text}${thresholdMarks(metric)}`);
  }
  lines.push(crossed === 0 ? 'thresholds: all passed' : `thresholds: ${crossed} crossed`);
  return `${lines.join('\n')}\n`;
}

/** What a script's handleSummary returns: the text on stdout and, unless SUMMARY_DIR=none, the JSON file. */
export function summaryOutputs(data, script, env) {
  const out = { stdout: textSummary(data, script) };
  const dir = (env && env.SUMMARY_DIR) || '.';
  if (dir !== 'none') {
    out[`${dir.replace(/\/+$/, '')}/${script}-summary.json`] = JSON.stringify(data, null, 2);
  }
  return out;
}
