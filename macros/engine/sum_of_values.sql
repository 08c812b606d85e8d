{#- The sum of per-user metric values (doubles, each in [0, 1], or such a value times a count of
    users) for a group's mean, and of a user's own terms (DCG, the ideal DCG, AP's precision
    sum: one user's rows too may be added in two threads); `over` is a window clause, or none
    for a plain aggregate.
    default__ is sum. DuckDB adds its threads' partial sums in whatever order they finish, so the
    same query gave means that differ in the last digit from one run to the next (evaluate on the
    example data: two results in ten runs; avg over five users likewise). There the values are
    summed as decimal(38, 18): exactly, the exact sum rounded once to a double, so every run gives
    the same digits (and a decimal overflow, past 10^20, is an error, not a wrong number). A sum
    of 3M values took 11 ms against 2 ms as doubles. -#}
{% macro default__sum_of_values(expression, over=none) -%}
    sum({{ expression }}){{ ' ' ~ over if over }}
{%- endmacro %}

{% macro duckdb__sum_of_values(expression, over=none) -%}
    cast(sum(cast({{ expression }} as decimal(38, 18))){{ ' ' ~ over if over }} as double)
{%- endmacro %}
