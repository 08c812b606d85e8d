{#- The mean of a column that is never NULL (a per-user metric value), in an aggregate that takes
    many of them at once; default__ is avg.
    Spark runs an aggregate without whole-stage code generation once its buffers pass
    spark.sql.codegen.maxFields (100): avg keeps two fields per column (sum, count), and a sum
    per column with the one count(*) they share about half as many. It is the same sum and the
    same division as Spark's avg, the column never being NULL. (It was written for evaluate's
    aggregate of 24 means and 24 standard deviations, 121 fields with avg: at 10M 9.2 s → 7.4 s,
    bench/README, issue 11, third round. On Spark evaluate now averages a row per k and metric,
    two columns (spark__metric_rows); a metric at many k still takes a mean per k.) -#}
{% macro default__mean(column) -%}
    avg({{ column }})
{%- endmacro %}

{% macro spark__mean(column) -%}
    sum({{ column }}) / count(*)
{%- endmacro %}

{#- DuckDB's avg, like its sum, depends on the order its threads finish (sum_of_values): the
    exact sum over the count instead. -#}
{% macro duckdb__mean(column) -%}
    {{ rank_metrics.sum_of_values(column) }} / count(*)
{%- endmacro %}
