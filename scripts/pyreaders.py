"""Check that Python's data tools read hpcwl's Parquet files and find in them
the rows and values of the CSV files hpcwl writes for the same data.

Usage: python pyreaders.py DIR, where DIR holds (see pyreaders.sh)
  kth.csv, kth.parquet        the built-in KTH-SP2 log, converted
  jobs.csv, jobs.parquet      per-job results of `hpcwl simulate --jobs`
  runs.csv, runs.parquet      per-run metrics of `hpcwl replicate --runs`
  evaluate_jobs.*, evaluate_curve.*   `hpcwl evaluate --jobs --curve`

Readers: pyarrow (the reference implementation), pandas (read_parquet) and
DuckDB (read_parquet in SQL). Exits 1 at the first disagreement.
"""

import json
import os
import re
import sys

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

# The 18 SWF fields as hpcwl names them, with their Parquet types.
SWF_COLUMNS = {
    "job_number": pa.int64(),
    "submit_time": pa.int64(),
    "wait_time": pa.int64(),
    "run_time": pa.int64(),
    "allocated_processors": pa.int32(),
    "average_cpu_time": pa.float64(),
    "used_memory": pa.float64(),
    "requested_processors": pa.int32(),
    "requested_time": pa.int64(),
    "requested_memory": pa.float64(),
    "status": pa.int32(),
    "user_id": pa.int32(),
    "group_id": pa.int32(),
    "executable_number": pa.int32(),
    "queue_number": pa.int32(),
    "partition_number": pa.int32(),
    "preceding_job_number": pa.int32(),
    "think_time": pa.int64(),
}

failures = 0


def check(ok, what):
    global failures
    if ok:
        print(f"  ok   {what}")
    else:
        print(f"  FAIL {what}")
        failures += 1


def same_column(csv_values, pq_values, name, rtol=0.0):
    """Compares two columns: exactly for integers and strings, to rtol
    (relative) for floating point, infinities and NaN included. Nullable
    columns (pandas' Int64 with <NA>) compare as floating point with NaN."""
    a, b = pd.Series(csv_values).reset_index(drop=True), pd.Series(pq_values).reset_index(drop=True)
    if len(a) != len(b):
        return False
    kinds = {a.dtype.kind, b.dtype.kind}
    nullable = a.isna().any() or b.isna().any()
    if "f" in kinds or nullable and kinds <= {"i", "u", "f"}:
        x = a.to_numpy(dtype="float64", na_value=np.nan)
        y = b.to_numpy(dtype="float64", na_value=np.nan)
        return bool(np.all((x == y) | np.isclose(x, y, rtol=rtol, atol=0, equal_nan=True)))
    if kinds <= {"i", "u"}:
        return bool(np.array_equal(a.to_numpy(dtype="int64"), b.to_numpy(dtype="int64")))
    return bool(np.array_equal(a.astype(str).to_numpy(), b.astype(str).to_numpy()))


def check_metadata(table, name):
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    check(meta.get("hpcwl.version", "").startswith("0."), f"{name}: hpcwl.version in the metadata ({meta.get('hpcwl.version')!r})")
    check(re.fullmatch(r"[0-9a-f]{64}", meta.get("hpcwl.input_sha256", "")) is not None, f"{name}: input SHA-256 in the metadata")
    check(meta.get("hpcwl.command", "").startswith("hpcwl "), f"{name}: command line in the metadata")
    return meta


def check_trace(d):
    print("trace: KTH-SP2 converted to CSV and to Parquet")
    csv = pd.read_csv(os.path.join(d, "kth.csv"), comment="#")
    path = os.path.join(d, "kth.parquet")
    # pyarrow
    table = pq.read_table(path)
    check(table.num_rows == len(csv) == 28476, f"pyarrow: {table.num_rows} rows, CSV {len(csv)}")
    check(table.column_names == list(SWF_COLUMNS), "pyarrow: the 18 SWF columns in SWF order")
    for col, typ in SWF_COLUMNS.items():
        if table.schema.field(col).type != typ:
            check(False, f"pyarrow: {col} has type {table.schema.field(col).type}, expected {typ}")
    check(all(table.schema.field(c).type == t for c, t in SWF_COLUMNS.items()), "pyarrow: column types")
    meta = check_metadata(table, "pyarrow")
    check(meta.get("swf_header", "").count("\n") == sum(1 for l in open(os.path.join(d, "kth.csv")) if l.startswith("#")),
          "pyarrow: the SWF header in the metadata, line for line")
    nulls = sum(table.column(c).null_count for c in SWF_COLUMNS)
    minus_ones = int((csv == -1).sum().sum())
    check(nulls == minus_ones and nulls > 0, f"pyarrow: {nulls} nulls where the CSV has {minus_ones} times -1")
    bad = [c for c in SWF_COLUMNS if not same_column(csv[c], pc.fill_null(table.column(c), -1).to_numpy(), c)]
    check(not bad, f"pyarrow: every value equals the CSV's (null read as -1){' except ' + ', '.join(bad) if bad else ''}")
    # pandas
    df = pd.read_parquet(path)
    bad = [c for c in SWF_COLUMNS if not same_column(csv[c], df[c].fillna(-1), c)]
    check(len(df) == len(csv) and not bad, f"pandas: {len(df)} rows, values equal the CSV's{' except ' + ', '.join(bad) if bad else ''}")
    # DuckDB
    cols = ", ".join(f"coalesce({c}, -1) AS {c}" for c in SWF_COLUMNS)
    ddf = duckdb.sql(f"SELECT {cols} FROM read_parquet('{path}')").df()
    bad = [c for c in SWF_COLUMNS if not same_column(csv[c], ddf[c], c)]
    check(len(ddf) == len(csv) and not bad, f"duckdb: {len(ddf)} rows, values equal the CSV's{' except ' + ', '.join(bad) if bad else ''}")
    users, runtime = duckdb.sql(f"SELECT count(DISTINCT user_id), sum(run_time) FROM read_parquet('{path}')").fetchone()
    check(users == csv["user_id"][csv["user_id"] >= 0].nunique() and runtime == csv["run_time"][csv["run_time"] >= 0].sum(),
          f"duckdb: {users} users and {runtime} s of run time, as in the CSV")


JOB_STRINGS = ["workload_name", "profile", "final_state", "allocated_resources", "metadata"]


def check_jobs(d):
    print("per-job results: hpcwl simulate builtin:KTH-SP2 --jobs")
    csv = pd.read_csv(os.path.join(d, "jobs.csv"), dtype={c: str for c in JOB_STRINGS}, keep_default_na=False,
                      na_values={"stretch": []})
    path = os.path.join(d, "jobs.parquet")
    table = pq.read_table(path)
    check(table.column_names == list(csv.columns), "pyarrow: the columns of Batsim's jobs.csv, in order")
    types = {f.name: f.type for f in table.schema}
    check(all(pa.types.is_integer(types[c]) for c in ["job_id", "submission_time", "starting_time", "waiting_time"])
          and pa.types.is_floating(types["stretch"]) and pa.types.is_string(types["final_state"]),
          "pyarrow: integer, floating-point and string columns")
    meta = check_metadata(table, "pyarrow")
    params = json.loads(meta.get("hpcwl.parameters", "{}"))
    check(params.get("scheduler") == "easy", f"pyarrow: the parameters in the metadata (scheduler {params.get('scheduler')!r})")
    for reader, df in [("pyarrow", table.to_pandas()), ("pandas", pd.read_parquet(path)),
                       ("duckdb", duckdb.sql(f"SELECT * FROM read_parquet('{path}')").df())]:
        bad = [c for c in csv.columns if not same_column(csv[c], df[c], c, rtol=1e-9)]
        check(len(df) == len(csv) > 28000 and not bad,
              f"{reader}: {len(df)} rows, values equal the CSV's{' except ' + ', '.join(bad) if bad else ''}")
    w_csv = duckdb.sql(f"SELECT sum(waiting_time), max(turnaround_time) FROM read_csv('{os.path.join(d, 'jobs.csv')}')").fetchone()
    w_pq = duckdb.sql(f"SELECT sum(waiting_time), max(turnaround_time) FROM read_parquet('{path}')").fetchone()
    check(w_csv == w_pq, f"duckdb: total wait and longest turnaround {w_pq} equal the CSV's {w_csv}")


def check_runs(d):
    print("replicate results: hpcwl replicate --runs")
    csv = pd.read_csv(os.path.join(d, "runs.csv"), dtype={"variant": str})
    path = os.path.join(d, "runs.parquet")
    table = pq.read_table(path)
    check_metadata(table, "pyarrow")
    for reader, df in [("pyarrow", table.to_pandas()), ("pandas", pd.read_parquet(path)),
                       ("duckdb", duckdb.sql(f"SELECT * FROM read_parquet('{path}')").df())]:
        # The CSV holds 8 significant digits (6 for the slope).
        bad = [c for c in csv.columns if not same_column(csv[c], df[c], c, rtol=1e-5 if c == "saturation_slope" else 1e-7)]
        check(list(df.columns) == list(csv.columns) and len(df) == len(csv) and not bad,
              f"{reader}: {len(df)} rows, values equal the CSV's{' except ' + ', '.join(bad) if bad else ''}")


def check_evaluate(d):
    print("evaluate: hpcwl evaluate builtin:KTH-SP2 --jobs --curve")
    for name in ["evaluate_jobs", "evaluate_curve"]:
        csv = pd.read_csv(os.path.join(d, name + ".csv"))
        path = os.path.join(d, name + ".parquet")
        for reader, df in [("pyarrow", pq.read_table(path).to_pandas()), ("pandas", pd.read_parquet(path)),
                           ("duckdb", duckdb.sql(f"SELECT * FROM read_parquet('{path}')").df())]:
            # A job the feedback run never submitted has no lateness: an
            # empty CSV cell and a null, both NaN in pandas.
            bad = [c for c in csv.columns if not same_column(csv[c], df[c], c)]
            check(list(df.columns) == list(csv.columns) and len(df) == len(csv) and not bad,
                  f"{reader}: {name}: {len(df)} rows, values equal the CSV's{' except ' + ', '.join(bad) if bad else ''}")


def main():
    d = sys.argv[1]
    print(f"pyarrow {pa.__version__}, pandas {pd.__version__}, duckdb {duckdb.__version__}")
    check_trace(d)
    check_jobs(d)
    check_runs(d)
    check_evaluate(d)
    if failures:
        print(f"{failures} check(s) failed")
        sys.exit(1)
    print("all readers agree with the CSV")


if __name__ == "__main__":
    main()
