// Reads hpcwl's Parquet outputs with two Parquet readers that share no code
// with hpcwl's writer, DuckDB (its C++ reader, the one the Python duckdb
// package embeds) and hyparquet (a reader in JavaScript), and checks that
// they hold the rows and values of the CSV outputs. The same checks as
// pyreaders.py, for machines where the Python packages cannot be installed
// but the npm registry answers. Usage: node jsreaders.mjs DIR (see
// pyreaders.sh for the files in DIR).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const dir = process.argv[2];
let failures = 0;

function check(ok, what) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

// readCSV returns the column names and the rows (arrays of cells) of a CSV
// file hpcwl wrote, without its '#' header lines.
function readCSV(name) {
  const lines = readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  return { columns: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',')) };
}

// sameValue compares a CSV cell with a Parquet value: numbers to rtol
// (relative), nulls as SWF's -1 when nullIs is given, strings exactly.
function sameValue(cell, value, rtol, nullIs) {
  if (value === null || value === undefined) {
    return nullIs !== undefined && cell === nullIs;
  }
  if (typeof value === 'string') return cell === value;
  if (typeof value === 'boolean') return cell === String(value);
  if (typeof value === 'bigint') return cell === value.toString();
  const x = cell === 'inf' ? Infinity : cell === 'NaN' ? NaN : Number(cell);
  if (Number.isNaN(x) && Number.isNaN(value)) return true;
  if (x === value) return true;
  return Math.abs(x - value) <= rtol * Math.abs(x);
}

// compareRows checks every row and column of a Parquet file read by
// hyparquet against the CSV.
function compareRows(reader, csv, rows, rtolOf, nullIs) {
  const bad = new Set();
  if (rows.length !== csv.rows.length) {
    check(false, `${reader}: ${rows.length} rows, the CSV has ${csv.rows.length}`);
    return;
  }
  rows.forEach((row, i) => {
    csv.columns.forEach((c, k) => {
      if (!sameValue(csv.rows[i][k], row[c], rtolOf(c), nullIs)) {
        if (!bad.has(c)) console.log(`       row ${i + 1} ${c}: CSV ${csv.rows[i][k]}, Parquet ${row[c]}`);
        bad.add(c);
      }
    });
  });
  check(bad.size === 0, `${reader}: ${rows.length} rows, every value equals the CSV's${bad.size ? ' except ' + [...bad].join(', ') : ''}`);
}

async function readParquet(name) {
  const buf = readFileSync(join(dir, name));
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const md = parquetMetadata(file);
  const meta = Object.fromEntries((md.key_value_metadata || []).map((kv) => [kv.key, kv.value]));
  const rows = await parquetReadObjects({ file, compressors });
  const types = Object.fromEntries(md.schema.slice(1).map((s) => [s.name, s.type]));
  return { meta, rows, types, columns: md.schema.slice(1).map((s) => s.name) };
}

function checkMetadata(meta, name) {
  check((meta['hpcwl.version'] || '').startsWith('0.'), `${name}: hpcwl.version in the metadata (${meta['hpcwl.version']})`);
  check(/^[0-9a-f]{64}$/.test(meta['hpcwl.input_sha256'] || ''), `${name}: input SHA-256 in the metadata`);
  check((meta['hpcwl.command'] || '').startsWith('hpcwl '), `${name}: command line in the metadata`);
}

const SWF_TYPES = {
  job_number: 'INT64', submit_time: 'INT64', wait_time: 'INT64', run_time: 'INT64',
  allocated_processors: 'INT32', average_cpu_time: 'DOUBLE', used_memory: 'DOUBLE',
  requested_processors: 'INT32', requested_time: 'INT64', requested_memory: 'DOUBLE',
  status: 'INT32', user_id: 'INT32', group_id: 'INT32', executable_number: 'INT32',
  queue_number: 'INT32', partition_number: 'INT32', preceding_job_number: 'INT32', think_time: 'INT64',
};

async function duckAll(con, sql) {
  return (await con.runAndReadAll(sql)).getRows();
}

async function main() {
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const version = (await duckAll(duck, 'SELECT version()'))[0][0];
  console.log(`DuckDB ${version} (npm @duckdb/node-api), hyparquet`);

  console.log('trace: KTH-SP2 converted to CSV and to Parquet');
  let csv = readCSV('kth.csv');
  let pq = await readParquet('kth.parquet');
  check(JSON.stringify(pq.columns) === JSON.stringify(Object.keys(SWF_TYPES)), 'hyparquet: the 18 SWF columns in SWF order');
  check(Object.entries(SWF_TYPES).every(([c, t]) => pq.types[c] === t), 'hyparquet: column types (INT64, INT32, DOUBLE)');
  checkMetadata(pq.meta, 'hyparquet');
  const headerLines = readFileSync(join(dir, 'kth.csv'), 'utf8').split('\n').filter((l) => l.startsWith('#')).length;
  check((pq.meta.swf_header || '').split('\n').length - 1 === headerLines, 'hyparquet: the SWF header in the metadata, line for line');
  compareRows('hyparquet', csv, pq.rows, () => 0, '-1');
  const kth = join(dir, 'kth.parquet');
  const coalesced = Object.keys(SWF_TYPES).map((c) => `coalesce(${c}, -1) AS ${c}`).join(', ');
  const duckRows = (await (await duck.runAndReadAll(`SELECT ${coalesced} FROM read_parquet('${kth}')`)).getRowObjects());
  compareRows('duckdb', csv, duckRows, () => 0, '-1');
  const csvSQL = `read_csv('${join(dir, 'kth.csv')}', comment='#', header=true)`;
  const [[diff1], [diff2]] = [await duckAll(duck, `SELECT count(*) FROM (SELECT ${coalesced} FROM read_parquet('${kth}') EXCEPT ALL SELECT * FROM ${csvSQL})`),
    await duckAll(duck, `SELECT count(*) FROM (SELECT * FROM ${csvSQL} EXCEPT ALL SELECT ${coalesced} FROM read_parquet('${kth}'))`)];
  check(diff1[0] === 0n && diff2[0] === 0n, `duckdb: the Parquet rows and DuckDB's own reading of the CSV are the same multiset (${diff1[0]}, ${diff2[0]} rows apart)`);

  console.log('per-job results: hpcwl simulate builtin:KTH-SP2 --jobs');
  csv = readCSV('jobs.csv');
  pq = await readParquet('jobs.parquet');
  check(JSON.stringify(pq.columns) === JSON.stringify(csv.columns), "hyparquet: the columns of Batsim's jobs.csv, in order");
  check(pq.types.job_id === 'INT64' && pq.types.stretch === 'DOUBLE' && pq.types.final_state === 'BYTE_ARRAY', 'hyparquet: integer, floating-point and string columns');
  checkMetadata(pq.meta, 'hyparquet');
  const params = JSON.parse(pq.meta['hpcwl.parameters'] || '{}');
  check(params.scheduler === 'easy', `hyparquet: the parameters in the metadata (scheduler ${params.scheduler})`);
  compareRows('hyparquet', csv, pq.rows, () => 1e-9);
  const jobs = join(dir, 'jobs.parquet');
  compareRows('duckdb', csv, await (await duck.runAndReadAll(`SELECT * FROM read_parquet('${jobs}')`)).getRowObjects(), () => 1e-9);

  console.log('replicate results: hpcwl replicate --runs');
  csv = readCSV('runs.csv');
  pq = await readParquet('runs.parquet');
  checkMetadata(pq.meta, 'hyparquet');
  // The CSV holds 8 significant digits (6 for the slope).
  const rtol = (c) => (c === 'saturation_slope' ? 1e-5 : 1e-7);
  compareRows('hyparquet', csv, pq.rows, rtol);
  compareRows('duckdb', csv, await (await duck.runAndReadAll(`SELECT * FROM read_parquet('${join(dir, 'runs.parquet')}')`)).getRowObjects(), rtol);

  console.log('evaluate: hpcwl evaluate builtin:KTH-SP2 --jobs --curve');
  for (const [name, nullIs] of [['evaluate_jobs', ''], ['evaluate_curve', undefined]]) {
    csv = readCSV(`${name}.csv`);
    pq = await readParquet(`${name}.parquet`);
    check(JSON.stringify(pq.columns) === JSON.stringify(csv.columns), `hyparquet: ${name}: the CSV's columns, in order`);
    compareRows(`hyparquet: ${name}`, csv, pq.rows, () => 0, nullIs);
    compareRows(`duckdb: ${name}`, csv, await (await duck.runAndReadAll(`SELECT * FROM read_parquet('${join(dir, name + '.parquet')}')`)).getRowObjects(), () => 0, nullIs);
  }

  if (failures) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log('all readers agree with the CSV');
}

await main();
