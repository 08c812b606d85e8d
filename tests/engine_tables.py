"""Putting a test's small tables (pyarrow or pandas) into PostgreSQL or Spark."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

# the engines a test given its inputs as tables runs on, each marked for the lanes (tests/conftest.py)
ENGINES = ["duckdb", pytest.param("postgres", marks=pytest.mark.postgres), pytest.param("spark", marks=pytest.mark.spark)]


def _arrow(table) -> pa.Table:
    return pa.Table.from_pandas(table, preserve_index=False) if isinstance(table, pd.DataFrame) else table


def _kind(data_type: pa.DataType) -> str:
    if pa.types.is_integer(data_type):
        return "integer"
    if pa.types.is_floating(data_type):
        return "float"
    if pa.types.is_date(data_type):
        return "date"
    if pa.types.is_timestamp(data_type):
        return "timestamp"
    return "text"


def to_postgres(con, name: str, table) -> str:
    """Replace table `name` (in the connection's current schema) with these rows."""
    table = _arrow(table)
    types = {"integer": "bigint", "float": "double precision", "date": "date", "timestamp": "timestamp", "text": "text"}
    columns = ", ".join(f'"{field.name}" {types[_kind(field.type)]}' for field in table.schema)
    with con.cursor() as cursor:
        cursor.execute(f'drop table if exists "{name}"')
        cursor.execute(f'create table "{name}" ({columns})')
        if table.num_rows:
            marks = ", ".join(["%s"] * table.num_columns)
            cursor.executemany(f'insert into "{name}" values ({marks})',
                               [tuple(row.values()) for row in table.to_pylist()])
    con.commit()
    return name


def to_spark(spark, table):
    """A Spark DataFrame of these rows, with the same column types."""
    from pyspark.sql import types as T

    table = _arrow(table)
    types = {"integer": T.LongType(), "float": T.DoubleType(), "date": T.DateType(), "timestamp": T.TimestampType(),
             "text": T.StringType()}
    schema = T.StructType([T.StructField(field.name, types[_kind(field.type)]) for field in table.schema])
    return spark.createDataFrame([tuple(row.values()) for row in table.to_pylist()], schema)


def on_engine(engine: str, request, prefix: str, **frames) -> dict:
    """The frames as the engine's inputs, by argument name: DuckDB's the frames themselves,
    PostgreSQL's tables named <prefix>_<name> with its connection as con, Spark's DataFrames."""
    if engine == "duckdb":
        return frames
    if engine == "postgres":
        con = request.getfixturevalue("postgres")
        return {**{name: to_postgres(con, f"{prefix}_{name}", frame) for name, frame in frames.items()}, "con": con}
    spark = request.getfixturevalue("spark")
    return {name: to_spark(spark, frame) for name, frame in frames.items()}
