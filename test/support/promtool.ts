import { spawn } from 'node:child_process';

/**
 * `promtool check metrics` (Debian's `prometheus` package; scripts/services.sh installs it) on a
 * scrape: its exit status and what it said, or null where promtool is not on PATH.
 */
export function promtoolCheck(text: string): Promise<{ status: number; output: string } | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(null) : reject(err)));
    child.on('close', (status) => resolve({ status: status ?? -1, output }));
    child.stdin.end(text);
  });
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /([^\s=,{}]+)="(?:[^"\\]|\\.)*"/g;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SAMPLE = /^([^\s{]+)(\{.*\})? (\S+)(?: -?\d+)?$/;
/** What Go's ParseFloat reads, as Prometheus does: prom-client writes `Nan` before the first lag sample. */
const VALUE = /^([+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?|nan|[+-]?inf(inity)?)$/i;
const SERIES_SUFFIX = /_(bucket|count|sum)$/;
const TYPE_WORDS = /(^|_)(counter|gauge|histogram|summary|untyped)(_|$)/;

/**
 * The rules of promtool's linter (client_golang's promlint) and of the text format, for a machine
 * without promtool: valid names, HELP and TYPE on every family, a counter ends in `_total` and
 * nothing else does, `_bucket`/`_count`/`_sum` only on histograms and summaries, no `:` (reserved
 * for recording rules), no camelCase, no type in the name, parseable samples. Answers the problems.
 */
export function lintMetrics(text: string): string[] {
  const problems: string[] = [];
  const help = new Map<string, string>();
  const types = new Map<string, string>();
  const sampled = new Set<string>();
  const familyOf = (series: string) => {
    if (types.has(series)) return series;
    const base = series.replace(SERIES_SUFFIX, '');
    return ['histogram', 'summary'].includes(types.get(base) ?? '') ? base : series;
  };
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest = ''] = meta as unknown as [string, 'HELP' | 'TYPE', string, string?];
      const seen = kind === 'HELP' ? help : types;
      if (seen.has(name)) problems.push(`${name}: a second ${kind}`);
      if (kind === 'TYPE' && !/^(counter|gauge|histogram|summary|untyped)$/.test(rest))
        problems.push(`${name}: unknown type ${rest}`);
      if (kind === 'HELP' && !rest.trim()) problems.push(`${name}: empty HELP`);
      seen.set(name, rest);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample || !VALUE.test(sample[3]!)) {
      problems.push(`not a sample: ${line}`);
      continue;
    }
    for (const [, label] of (sample[2] ?? '').matchAll(LABEL))
      if (!LABEL_NAME.test(label!) || label!.startsWith('__')) problems.push(`${sample[1]}: bad label name ${label}`);
    sampled.add(familyOf(sample[1]!));
  }
  for (const name of new Set([...help.keys(), ...types.keys(), ...sampled])) {
    const type = types.get(name);
    if (!METRIC_NAME.test(name)) problems.push(`${name}: not a valid metric name`);
    if (name.includes(':')) problems.push(`${name}: metric names should not contain ':'`);
    if (/[A-Z]/.test(name)) problems.push(`${name}: metric names should be written in 'snake_case' not 'camelCase'`);
    if (!help.has(name)) problems.push(`${name}: no HELP`);
    if (!type) problems.push(`${name}: no TYPE`);
    if (type === 'counter' && !name.endsWith('_total'))
      problems.push(`${name}: counter metrics should have "_total" suffix`);
    if (type && type !== 'counter' && name.endsWith('_total'))
      problems.push(`${name}: non-counter metrics should not have "_total" suffix`);
    if (type !== 'histogram' && type !== 'summary' && SERIES_SUFFIX.test(name))
      problems.push(
        `${name}: non-histogram and non-summary metrics should not have "${SERIES_SUFFIX.exec(name)![0]}" suffix`,
      );
    if (TYPE_WORDS.test(name)) problems.push(`${name}: metric name should not include type`);
  }
  return problems;
}
