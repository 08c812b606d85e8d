{#- The mean of a column that is never NULL (a per-user metric value), in an aggregate that takes
    many of them at once; default__ is avg.
    Spark runs an aggregate without whole-stage code generation once its buffers pass
    spark.sql.codegen.maxFields (100): avg keeps two fields per column (sum, count), so
    evaluate's six metrics at four k with their standard deviations need 121, and a sum per
    column with the one count(*) they share 97. It is the same sum and the same division as
    Spark's avg, the column never being NULL (bench/README, issue 11, third round: evaluate at
    10M 9.2 s → 7.4 s, MAP@12 alone 7.3 s in that session). -#}
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
