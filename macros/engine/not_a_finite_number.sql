{#- A condition true for NaN and ±inf (of a column whose type `data_type` can hold them): those
    are never between the largest doubles, and every engine sorts NaN above all numbers. -#}
{% macro default__not_a_finite_number(expression, data_type) -%}
    {%- set largest = 'cast(1.7976931348623157e308 as ' ~ rank_metrics.type_double() ~ ')' -%}
    not ({{ expression }} between -{{ largest }} and {{ largest }})
{%- endmacro %}

{#- DuckDB folds a comparison with a Parquet file's minimum and maximum, which pyarrow and others
    write leaving NaN out: `not (score between …)` and isnan(score) were false on a NaN row of a
    Parquet file (DuckDB 2.0.1), so NaN scores went unchecked into the metrics. isfinite is not
    folded (tests/test_inputs.py reads such a file). -#}
{% macro duckdb__not_a_finite_number(expression, data_type) -%}
    not isfinite(cast({{ expression }} as double))
{%- endmacro %}

{#- PostgreSQL's numeric holds NaN and ±Infinity too, and compares with a double as a double,
    which fails for a value past the largest double (1e1000: a raw NumericValueOutOfRange from
    the data checks; a user's trial): its text says which it is. NaN = NaN in its joins, so NaN
    ids met each other where the reference's never did. -#}
{% macro postgres__not_a_finite_number(expression, data_type) -%}
    {%- if (data_type | string | lower).split('(') | first | trim in ['numeric', 'decimal'] -%}
    cast({{ expression }} as text) in ('NaN', 'Infinity', '-Infinity')
    {%- else -%}
    {{ rank_metrics.default__not_a_finite_number(expression, data_type) }}
    {%- endif -%}
{%- endmacro %}
