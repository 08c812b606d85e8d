{#- The sum of per-user metric values (doubles, each in [0, 1], or such a value times a count of
    users) for a group's mean, and of a user's own terms (DCG, the ideal DCG, AP's precision
    sum: one user's rows too may be added in two threads); `over` is a window clause, or none
    for a plain aggregate. `any_size` says the terms may be of any size (gains: a grade's own
    size, or 2^grade).
    default__ is sum. DuckDB adds its threads' partial sums in whatever order they finish, so the
    same query gave means that differ in the last digit from one run to the next (evaluate on the
    example data: two results in ten runs; avg over five users likewise). There the values are
    summed as decimal(38, 24): exactly, the exact sum rounded once to a double, so every run gives
    the same digits. 24 places keep a value of 1e-15 (precision at a k of 10^15) to 1e-9, and
    leave 14 digits for the sum of values that are at most 1, or a count of users each; 18
    places had made precision at k = 2^63 - 1 a 0, and a false "nothing met" warning. A sum of 3M values took 11 ms against 2 ms as doubles. Terms of any size
    are summed so only where the decimal holds each to within 1e-12, between 1e-6 and 1e12 (and
    their sum, up to 10^8 terms); the decimal sum only ever sees such terms, since the engine
    computes both branches of the case. Others (gains of grade 100 under gain='exponential',
    grades of 1e-20) are summed as doubles, whose last digit may then differ between runs: the
    decimal failed on the first and rounded the second to 0. -#}
{% macro default__sum_of_values(expression, over=none, any_size=false) -%}
    sum({{ expression }}){{ ' ' ~ over if over }}
{%- endmacro %}

{% macro duckdb__sum_of_values(expression, over=none, any_size=false) -%}
    {%- set window = ' ' ~ over if over else '' -%}
    {%- if any_size -%}
    {%- set held = 'case when abs(' ~ expression ~ ') < 1e12 then ' ~ expression ~ ' end' -%}
    case when max(abs({{ expression }})){{ window }} < 1e12
            and coalesce(min(case when {{ expression }} <> 0 then abs({{ expression }}) end){{ window }}, 1) >= 1e-6
        then cast(sum(cast({{ held }} as decimal(38, 18))){{ window }} as double)
        else sum({{ expression }}){{ window }} end
    {%- else -%}
    cast(sum(cast({{ expression }} as decimal(38, 24))){{ window }} as double)
    {%- endif -%}
{%- endmacro %}
